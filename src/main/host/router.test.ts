/**
 * The router over the real services (a temp data folder, the real SQLite store): every input is parsed against
 * the contract before a handler runs; bad input, unknown calls and handler bugs come back as typed errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { calls, CALL_NAMES, EVENT_NAMES, events } from '../../shared/contract';
import { SEARCH_QUERY_MAX } from '../../shared/search-schemas';
import { createRouter } from './router';
import type { Services } from './services';
import { servicesFixture, type ServicesFixture } from './services-fixture';

let fixture: ServicesFixture;
let temp: string;
let services: Services;

beforeAll(async () => {
  fixture = await servicesFixture('router');
  ({ temp, services } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

describe('the contract', () => {
  test('has exactly one entry per declared call and event name', () => {
    expect(Object.keys(calls).sort()).toEqual([...CALL_NAMES].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENT_NAMES].sort());
  });
});

describe('router', () => {
  test('an invalid payload is invalid_input naming every bad field; nothing runs', async () => {
    const router = createRouter(services.handlers);
    const r = await router.handle('sessions.rename', { sessionId: 7, title: '' });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('sessions.rename at "sessionId"'),
        hint: 'Fix the input to match the contract and send it again.',
        data: { issues: [expect.objectContaining({ path: 'sessionId' }), expect.objectContaining({ path: 'title' })] },
      },
    });
  });

  test('loop.answer: a decision other than continue / stop is invalid_input; an unknown stop is not_found', async () => {
    const router = createRouter(services.handlers);
    const bad = await router.handle('loop.answer', { sessionId: 'ses_x', partId: 'prt_x', decision: 'maybe' });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { issues: [{ path: 'decision' }] } },
    });
    expect(await router.handle('loop.answer', { sessionId: 'ses_x', partId: '', decision: 'stop' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const projects = await router.handle('projects.open', { root: temp });
    const project = projects.ok ? (projects.value as { id: string }).id : '';
    const session = await router.handle('sessions.create', { projectId: project });
    const sessionId = session.ok ? (session.value as { id: string }).id : '';
    expect(await router.handle('loop.answer', { sessionId, partId: 'prt_none', decision: 'continue' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  test('sessions.search: a query over SEARCH_QUERY_MAX characters is invalid_input; an unknown project too', async () => {
    const router = createRouter(services.handlers);
    const long = await router.handle('sessions.search', { projectId: 'p', query: 'x'.repeat(SEARCH_QUERY_MAX + 1) });
    expect(long).toMatchObject({ ok: false, error: { code: 'invalid_input', data: { issues: [{ path: 'query' }] } } });
    const unknown = await router.handle('sessions.search', { projectId: 'nope', query: '%' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'No project nope.' } });
  });

  test('an unknown call or a non-string name is unknown_call', async () => {
    const router = createRouter(services.handlers);
    expect((await router.handle('fs.readFile', { path: '/etc/passwd' })).ok).toBe(false);
    expect(await router.handle('fs.readFile', {})).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await router.handle({ toString: 1 }, {})).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect(await router.handle('__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
  });

  test('a handler that throws is an internal error as data, and the bug is reported', async () => {
    const bugs: string[] = [];
    const router = createRouter(
      {
        ...services.handlers,
        'projects.list': async () => {
          throw new Error('boom');
        },
      },
      (name) => bugs.push(name),
    );
    expect(await router.handle('projects.list', {})).toMatchObject({
      ok: false,
      error: { code: 'internal', message: 'projects.list failed: boom' },
    });
    expect(bugs).toEqual(['projects.list']);
  });

  test('a good call passes through: open a folder that does not exist → file_not_found; app.info answers', async () => {
    const router = createRouter(services.handlers);
    expect(await router.handle('projects.open', { root: join(temp, 'missing') })).toMatchObject({
      ok: false,
      error: { code: 'file_not_found' },
    });
    expect(await router.handle('app.info', undefined)).toEqual({
      ok: true,
      value: { version: 'test', transport: 'web', nativeDialog: false, firstRun: true },
    });
    expect(await router.handle('projects.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});

describe('settings through the contract', () => {
  test('a typed key is never written to settings.json; the view says a key is stored for that provider', async () => {
    const router = createRouter(services.handlers);
    const loaded = await router.handle('settings.get', {});
    if (!loaded.ok) throw new Error(loaded.error.message);
    const provider = {
      id: 'custom',
      kind: 'openai-compatible',
      model: 'coder-7b',
      baseURL: 'http://127.0.0.1:8080/v1',
    };
    const saved = await router.handle('settings.save', {
      settings: { defaultProvider: 'custom', providers: [provider], permissions: [] },
      base: (loaded.value as { version: string }).version,
      keys: { custom: 'sk-secret-123' },
    });
    expect(saved).toMatchObject({
      ok: true,
      value: { exists: true, keys: { custom: { source: 'stored' } }, keyStorage: 'environment' },
    });
    const file = await readFile(join(temp, 'data', 'settings.json'), 'utf8');
    expect(file).not.toContain('sk-secret-123');
    const written = JSON.parse(file) as { defaultProvider: string; providers: { id: string }[] };
    expect(written.defaultProvider).toBe('custom');
    // No variable names a stored key: it lives in the secret store only, and never in this process's environment.
    expect(written.providers).toEqual([provider]);
    expect(Object.values(process.env)).not.toContain('sk-secret-123');
    expect(await router.handle('app.info', {})).toMatchObject({ ok: true, value: { firstRun: false } });
  });

  test('a save input that is not a document is refused by the contract before any handler runs', async () => {
    const router = createRouter(services.handlers);
    expect(await router.handle('settings.save', { settings: [], base: 'absent' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { issues: [{ path: 'settings' }] } },
    });
    expect(await router.handle('settings.save', { settings: {}, base: 'absent', keys: { a: '' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { issues: [{ path: 'keys.a' }] } },
    });
  });
});

describe('projects through the contract', () => {
  test('a file is not a project: not_a_directory, and nothing is added to Recent', async () => {
    const router = createRouter(services.handlers);
    const file = join(temp, 'notes.txt');
    await writeFile(file, 'not a folder\n');
    const before = await router.handle('projects.list', {});
    expect(await router.handle('projects.open', { root: file })).toMatchObject({
      ok: false,
      error: { code: 'not_a_directory', message: `${file} is a file, not a folder.` },
    });
    expect(await router.handle('projects.list', {})).toEqual(before);
  });
});
