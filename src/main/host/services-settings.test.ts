/**
 * settings.json broken while the app runs (new-user trial): the error is shown plainly through the contract
 * (app.info and settings.get name the line), Save refuses to overwrite the unreadable file, and only "Reset to
 * defaults" replaces it — after keeping the old bytes as settings.json.bak-<timestamp>. Real services, real files.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Router } from './router';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { backupSettingsFile, jsonErrorPosition } from './services-settings-file';
import { jsonErrorOffset } from './json-error-offset';
import fc from 'fast-check';

let dataDir: string;
let router: Router;

const GOOD = {
  defaultProvider: 'custom',
  providers: [{ id: 'custom', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:8080/v1', model: 'coder-7b' }],
  permissions: [],
};
// Hand-written notes as comments: not JSON. The error is on line 2 (the first comment).
const BROKEN =
  '{\n  // my notes: the 8080 box is the fast one\n  "defaultProvider": "custom",\n  "providers": [],\n  "permissions": []\n}\n';

let fixture: ServicesFixture;

beforeEach(async () => {
  fixture = await servicesFixture('settings', { settings: GOOD, languageServers: false });
  ({ dataDir, router } = fixture);
});

afterEach(async () => {
  await fixture?.close();
});

describe('settings.json broken while the app runs', () => {
  test('app.info and settings.get name the file and the line; no defaults pretend to be the settings', async () => {
    await writeFile(join(dataDir, 'settings.json'), BROKEN);
    const info = await router.handle('app.info', {});
    expect(info).toMatchObject({
      ok: true,
      value: {
        firstRun: false,
        settingsError: {
          line: 2,
          message: expect.stringMatching(/^settings\.json is not valid JSON at line 2, column 3/),
        },
      },
    });
    const view = await router.handle('settings.get', {});
    expect(view).toMatchObject({
      ok: true,
      value: { provider: null, model: '', baseURL: '', loadError: { line: 2, file: join(dataDir, 'settings.json') } },
    });
    if (!view.ok) return;
    expect((view.value as { loadError: { hint: string } }).loadError.hint).toMatch(/fix it.*or.*Reset to defaults/i);
  });

  test('valid JSON that is not settings names the field', async () => {
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ ...GOOD, providers: [{ id: 'x', kind: 'nope', model: 'm' }] }),
    );
    const view = await router.handle('settings.get', {});
    expect(view).toMatchObject({
      ok: true,
      value: {
        loadError: {
          message: expect.stringMatching(/^settings\.json does not hold valid settings: .*providers\.0\.kind/),
        },
      },
    });
  });

  test('Save refuses to overwrite the unreadable file; the bytes stay as the user wrote them', async () => {
    await writeFile(join(dataDir, 'settings.json'), BROKEN);
    const saved = await router.handle('settings.save', { provider: 'ollama', model: 'qwen2.5-coder:7b', baseURL: '' });
    expect(saved).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringContaining('settings.json is not valid JSON at line 2'),
        hint: expect.stringContaining('Reset to defaults'),
      },
    });
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(BROKEN);
    expect((await readdir(dataDir)).filter((f) => f.startsWith('settings.json.bak'))).toEqual([]);
  });

  test('Reset to defaults keeps the old file as settings.json.bak-<timestamp> and says so', async () => {
    await writeFile(join(dataDir, 'settings.json'), BROKEN);
    const reset = await router.handle('settings.save', { provider: null, model: '', baseURL: '', reset: true });
    expect(reset).toMatchObject({
      ok: true,
      value: { provider: null, backup: expect.stringMatching(/settings\.json\.bak-\d{8}-\d{6}/) },
    });
    if (!reset.ok) return;
    const backup = (reset.value as { backup: string }).backup;
    expect(await readFile(backup, 'utf8')).toBe(BROKEN);
    expect(existsSync(join(dataDir, 'settings.json'))).toBe(false);
    expect(await router.handle('app.info', {})).toEqual({
      ok: true,
      value: { version: 'test', transport: 'web', nativeDialog: false, firstRun: true },
    });
    const after = await router.handle('settings.save', { provider: 'ollama', model: 'qwen2.5-coder:7b', baseURL: '' });
    expect(after).toMatchObject({ ok: true, value: { provider: 'ollama', model: 'qwen2.5-coder:7b' } });
    expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      defaultProvider: 'ollama',
    });
  });

  test('a file fixed by hand while running is what the screen shows and what Save builds on', async () => {
    await writeFile(join(dataDir, 'settings.json'), BROKEN);
    const fixed = { ...GOOD, permissions: [{ permission: 'edit', pattern: '*', action: 'ask' }] };
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify(fixed, null, 2));
    expect(await router.handle('settings.get', {})).toEqual({
      ok: true,
      value: {
        provider: 'custom',
        model: 'coder-7b',
        baseURL: 'http://127.0.0.1:8080/v1',
        hasKey: false,
        keyStorage: 'environment',
      },
    });
    const saved = await router.handle('settings.save', {
      provider: 'custom',
      model: 'coder-14b',
      baseURL: 'http://127.0.0.1:8080/v1',
    });
    expect(saved).toMatchObject({ ok: true, value: { model: 'coder-14b' } });
    expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      permissions: fixed.permissions,
    });
  });
});

describe('settings file helpers', () => {
  test('JSON error positions: found by walking the text, whatever V8 says (or does not say)', () => {
    const raw = '{\n  "a": 1,\n  "b": }\n';
    // Node 20 gives no position for this one.
    expect(jsonErrorPosition(raw, 'Unexpected token \'}\', ..."1,\n  "b": }\n" is not valid JSON')).toEqual({
      line: 3,
      column: 8,
    });
    expect(jsonErrorPosition('{\n  "a": [1,', 'Unexpected end of JSON input')).toEqual({ line: 2, column: 11 });
    expect(jsonErrorPosition('{\n  "a": 1,\n}', 'x')).toEqual({ line: 3, column: 1 });
    expect(jsonErrorPosition('{"a": "tab\there"}', 'x')).toEqual({ line: 1, column: 11 });
    expect(jsonErrorPosition('{"a": "\\q"}', 'x')).toEqual({ line: 1, column: 9 });
    expect(jsonErrorPosition('{"a": 01}', 'x')).toEqual({ line: 1, column: 8 });
    expect(jsonErrorPosition('{} x', 'x')).toEqual({ line: 1, column: 4 });
  });

  test('the walker agrees with JSON.parse: valid texts pass, every strict prefix fails (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(jsonErrorOffset(text)).toBeNull();
        const cut = text.slice(0, Math.floor(text.length / 2));
        let parses = true;
        try {
          JSON.parse(cut);
        } catch {
          parses = false;
        }
        expect(jsonErrorOffset(cut) === null).toBe(parses);
      }),
      { numRuns: 300 },
    );
  });

  test('a second reset in the same second gets its own backup name; both old files are kept', async () => {
    const file = join(dataDir, 'settings.json');
    const now = new Date('2026-11-29T23:40:05.123Z');
    await writeFile(file, 'first');
    const a = await backupSettingsFile(file, now);
    await writeFile(file, 'second');
    const b = await backupSettingsFile(file, now);
    expect([a, b]).toEqual([`${file}.bak-20261129-234005`, `${file}.bak-20261129-234005-2`]);
    expect([await readFile(a, 'utf8'), await readFile(b, 'utf8')]).toEqual(['first', 'second']);
    expect(existsSync(file)).toBe(false);
  });
});
