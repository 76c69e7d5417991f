/**
 * The Settings form's rules (settings-form.ts): a preset fills kind, address, key variable and model under a free
 * id; renaming and removing a provider carry `defaultProvider` and `compaction.provider` along; the other-models
 * list keeps entries with their own window; a save sends typed keys by provider id (removals as null, untouched
 * keys not at all); the stale rule; main's issues found by field path.
 */
import { describe, expect, test } from 'vitest';
import type { SettingsDoc } from '../../../shared/settings-schemas';
import {
  addProvider,
  freeId,
  isDirty,
  isStale,
  issuesAt,
  issuesOf,
  modelIds,
  otherModels,
  removeProvider,
  renameKey,
  renameProvider,
  saveInput,
  setOtherModels,
  updateProvider,
  words,
} from './settings-form';

const empty: SettingsDoc = { defaultProvider: '', providers: [], permissions: [] };

describe('providers', () => {
  test('a preset fills its kind, address, key variable and model; the first becomes the default', () => {
    const one = addProvider(empty, 'anthropic');
    expect(one.providers).toEqual([
      { id: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
    ]);
    expect(one.defaultProvider).toBe('anthropic');
    const two = addProvider(addProvider(one, 'ollama'), 'ollama');
    expect(two.providers.map((p) => [p.id, p.baseURL, p.model])).toEqual([
      ['anthropic', undefined, 'claude-sonnet-4-5'],
      ['ollama', 'http://127.0.0.1:11434/v1', 'qwen2.5-coder:7b'],
      ['ollama-2', 'http://127.0.0.1:11434/v1', 'qwen2.5-coder:7b'],
    ]);
    expect(two.defaultProvider).toBe('anthropic');
    expect(freeId('a', ['a', 'a-2'])).toBe('a-3');
  });

  test('renaming and removing carry the default and the compaction model along', () => {
    let doc = addProvider(addProvider(empty, 'openai'), 'custom');
    doc = { ...doc, compaction: { provider: 'custom', model: 'small' } };
    doc = renameProvider(doc, 1, 'box');
    expect(doc.compaction).toEqual({ provider: 'box', model: 'small' });
    doc = renameProvider(doc, 0, 'oa');
    expect(doc.defaultProvider).toBe('oa');
    doc = removeProvider(doc, 0);
    expect(doc.defaultProvider).toBe('box');
    expect(doc.compaction).toEqual({ provider: 'box', model: 'small' });
    doc = removeProvider(doc, 0);
    expect(doc).toEqual({ defaultProvider: '', providers: [], permissions: [] });
  });

  test('empty optional fields are dropped; other models keep entries that carry their own window', () => {
    let doc = addProvider(empty, 'custom');
    doc = updateProvider(doc, 0, { baseURL: '', model: 'big', contextWindow: undefined });
    expect(doc.providers[0]).toEqual({ id: 'custom', kind: 'openai-compatible', model: 'big' });
    doc = updateProvider(doc, 0, { models: ['big', { id: 'small', contextWindow: 8192 }, 'mid'] });
    expect(otherModels(doc.providers[0]!)).toEqual(['small', 'mid']);
    doc = setOtherModels(doc, 0, ['small', 'tiny']);
    expect(doc.providers[0]?.models).toEqual(['big', { id: 'small', contextWindow: 8192 }, 'tiny']);
    expect(modelIds(doc.providers[0]!)).toEqual(['big', 'small', 'tiny']);
    doc = setOtherModels(updateProvider(doc, 0, { models: [] }), 0, []);
    expect(doc.providers[0]).not.toHaveProperty('models');
  });
});

describe('saving', () => {
  test('keys go by provider id: typed ones and removals; untouched and empty ones are not sent', () => {
    const doc = addProvider(addProvider(addProvider(empty, 'openai'), 'anthropic'), 'ollama');
    expect(saveInput(doc, 'v1', [undefined, 'sk-1', ''])).toEqual({
      settings: doc,
      base: 'v1',
      keys: { anthropic: 'sk-1' },
    });
    expect(saveInput(doc, 'v1', [null])).toEqual({ settings: doc, base: 'v1', keys: { openai: null } });
    expect(saveInput(doc, 'v1', [])).toEqual({ settings: doc, base: 'v1' });
    expect(isDirty(doc, structuredClone(doc), [])).toBe(false);
    expect(isDirty(doc, structuredClone(doc), [undefined, ''])).toBe(false);
    expect(isDirty(doc, structuredClone(doc), [null])).toBe(true);
    expect(isDirty(renameProvider(doc, 0, 'x'), doc, [])).toBe(true);
  });

  test('stale when the disk moved on, except during the form’s own save', () => {
    expect(isStale('a', 'a', false)).toBe(false);
    expect(isStale('a', 'b', false)).toBe(true);
    expect(isStale('a', 'b', true)).toBe(false);
    expect(isStale(undefined, 'b', false)).toBe(false);
    expect(isStale('a', null, false)).toBe(false);
  });

  test("main's issues are found by field path, and only well-formed ones are taken", () => {
    const issues = issuesOf({
      issues: [
        { path: 'providers.1.baseURL', message: 'use an http:// or https:// address' },
        { path: 'providers.10.id', message: 'taken' },
        { path: 'providers.1.models.2', message: 'tiny is in the list twice' },
        { path: 3, message: 'not a path' },
      ],
    });
    expect(issues).toHaveLength(3);
    expect(issuesAt(issues, 'providers.1')).toEqual([
      'use an http:// or https:// address',
      'tiny is in the list twice',
    ]);
    expect(issuesAt(issues, 'providers.1.models')).toEqual(['tiny is in the list twice']);
    expect(issuesOf(undefined)).toEqual([]);
  });
});

test('words and renamed keys', () => {
  expect(words(' a, b  c,,d ')).toEqual(['a', 'b', 'c', 'd']);
  expect(words('node  server.js --flag=a,b', false)).toEqual(['node', 'server.js', '--flag=a,b']);
  expect(Object.keys(renameKey({ a: 1, b: 2, c: 3 }, 'b', 'z'))).toEqual(['a', 'z', 'c']);
});
