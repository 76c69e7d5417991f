/**
 * The Settings screen's calls through the contract (router → services-settings.ts), real services and real files:
 *   - settings.json broken while the app runs: app.info and settings.get name the line, Save refuses to overwrite
 *     it (`conflict`), only "Reset to defaults" replaces it after keeping the old bytes as a backup;
 *   - several providers with model lists: saved as the whole document (comments and key order kept), each typed key
 *     kept in the key store for its own provider only, never in the file, and removed with its provider; the
 *     view says where each key comes from and each model's window (settings / catalog / fallback);
 *   - a bad value is refused naming its field (`data.issues`), the screen's own rules too (ids, default, http);
 *   - the stale rule: a save loaded before a hand edit is `stale` with the file's view now, nothing written;
 *   - a hand edit pushes `settings.changed` with the new version; the chat's picker lists every provider's models.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyEvent, SettingsView } from '../../shared/contract';
import type { Router } from './router';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { backupSettingsFile } from '../agent/settings/save';

let dataDir: string;
let router: Router;
let fixture: ServicesFixture;

const GOOD = {
  defaultProvider: 'custom',
  providers: [{ id: 'custom', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:8080/v1', model: 'coder-7b' }],
  permissions: [],
};
// A key written without its quotes: not JSON (nor JSON with comments). The error is on line 2, column 3.
const BROKEN = '{\n  defaultProvider: "custom",\n  "providers": [],\n  "permissions": []\n}\n';
// Hand-written notes as comments, and a trailing comma: as VS Code users write settings. Not broken.
const COMMENTED = `{
  // my notes: the 8080 box is the fast one
  "defaultProvider": "custom",
  "providers": [
    /* the box under the desk */
    { "id": "custom", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:8080/v1", "model": "coder-7b" },
  ],
  "permissions": [], // none yet
}
`;

beforeEach(async () => {
  fixture = await servicesFixture('settings', { settings: GOOD, languageServers: false });
  ({ dataDir, router } = fixture);
});

afterEach(async () => {
  await fixture?.close();
});

async function view(): Promise<SettingsView> {
  const r = await router.handle('settings.get', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value as SettingsView;
}

const file = (): string => join(dataDir, 'settings.json');

describe('settings.json broken while the app runs', () => {
  test('app.info and settings.get name the file and the line; no defaults pretend to be the settings', async () => {
    await writeFile(file(), BROKEN);
    expect(await router.handle('app.info', {})).toMatchObject({
      ok: true,
      value: { firstRun: false, settingsError: { line: 2, message: expect.stringMatching(/line 2, column 3/) } },
    });
    const v = await view();
    expect(v).toMatchObject({ settings: null, exists: true, loadError: { line: 2, file: file() } });
    expect(v.loadError?.hint).toMatch(/fix it.*or.*Reset to defaults/i);
  });

  test('valid JSON that is not settings names the field', async () => {
    await writeFile(file(), JSON.stringify({ ...GOOD, providers: [{ id: 'x', kind: 'nope', model: 'm' }] }));
    expect((await view()).loadError?.message).toMatch(
      /^settings\.json does not hold valid settings at providers\.0\.kind: /,
    );
  });

  test('Save refuses to overwrite the unreadable file; Reset keeps it as a backup and says so', async () => {
    await writeFile(file(), BROKEN);
    const { version } = await view();
    const saved = await router.handle('settings.save', { settings: GOOD, base: version });
    expect(saved).toMatchObject({
      ok: false,
      error: { code: 'conflict', hint: expect.stringContaining('Reset to defaults') },
    });
    expect(await readFile(file(), 'utf8')).toBe(BROKEN);
    expect((await readdir(dataDir)).filter((f) => f.startsWith('settings.json.bak'))).toEqual([]);

    const reset = await router.handle('settings.reset', {});
    expect(reset).toMatchObject({
      ok: true,
      value: { exists: false, backup: expect.stringMatching(/settings\.json\.bak-\d{8}-\d{6}/) },
    });
    if (!reset.ok) return;
    const after = reset.value as SettingsView;
    expect(await readFile(after.backup as string, 'utf8')).toBe(BROKEN);
    expect(existsSync(file())).toBe(false);
    expect(after.settings?.providers.map((p) => p.id)).toEqual(['ollama', 'lmstudio', 'openai', 'anthropic']);
    expect(await router.handle('app.info', {})).toMatchObject({ ok: true, value: { firstRun: true } });
  });
});

describe('several providers, each with its models and its key', () => {
  test('saved whole with comments kept; keys stored per provider, never in the file; windows with their source', async () => {
    await writeFile(file(), COMMENTED);
    const before = await view();
    const settings = {
      ...before.settings,
      defaultProvider: 'anthropic',
      providers: [
        { ...before.settings?.providers[0], models: ['coder-7b', { id: 'my-finetune', contextWindow: 16_384 }] },
        {
          id: 'anthropic',
          kind: 'anthropic',
          model: 'claude-sonnet-4-5',
          models: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
          apiKeyEnv: 'ANTHROPIC_API_KEY',
        },
      ],
    };
    const saved = await router.handle('settings.save', {
      settings,
      base: before.version,
      keys: { anthropic: 'sk-ant-secret-1' },
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const v = saved.value as SettingsView;
    expect(v.keys).toEqual({
      custom: { source: 'none' },
      anthropic: { source: 'stored', env: 'ANTHROPIC_API_KEY' },
    });
    expect(v.windows.map((w) => [w.provider, w.model, w.window, w.source])).toEqual([
      [0, 'coder-7b', 128_000, 'fallback'],
      [0, 'my-finetune', 16_384, 'settings'],
      [1, 'claude-sonnet-4-5', 200_000, 'catalog'],
      [1, 'claude-haiku-4-5', 200_000, 'catalog'],
    ]);
    const text = await readFile(file(), 'utf8');
    expect(text).not.toContain('sk-ant-secret-1');
    expect(text).toContain('// my notes: the 8080 box is the fast one');
    expect(text).toContain('/* the box under the desk */');
    expect(text).toContain('"permissions": [], // none yet');
    expect(v.version).not.toBe(before.version);

    // removing the provider removes its stored key
    const dropped = await router.handle('settings.save', {
      settings: { ...settings, defaultProvider: 'custom', providers: [settings.providers[0]] },
      base: v.version,
    });
    expect(dropped).toMatchObject({ ok: true, value: { keys: { custom: { source: 'none' } } } });
    const back = await router.handle('settings.save', {
      settings,
      base: (dropped as { value: SettingsView }).value.version,
    });
    expect(back).toMatchObject({
      ok: true,
      value: { keys: { anthropic: { source: 'none', env: 'ANTHROPIC_API_KEY' } } },
    });
  });

  test('the chat picker lists every model of every provider', async () => {
    const { version, settings } = await view();
    const two = {
      ...settings,
      providers: [
        { ...settings?.providers[0], models: ['coder-7b', 'coder-14b'] },
        { id: 'box', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9000/v1', model: 'qwen3-coder' },
      ],
    };
    expect((await router.handle('settings.save', { settings: two, base: version })).ok).toBe(true);
    const project = await router.handle('projects.open', { root: fixture.temp });
    const session = await router.handle('sessions.create', {
      projectId: (project as { value: { id: string } }).value.id,
    });
    const talk = await router.handle('talk.get', { sessionId: (session as { value: { id: string } }).value.id });
    expect(talk).toMatchObject({
      ok: true,
      value: {
        provider: 'custom',
        model: 'coder-7b',
        providers: [
          { id: 'custom', model: 'coder-7b', models: ['coder-7b', 'coder-14b'] },
          { id: 'box', model: 'qwen3-coder', models: ['qwen3-coder'] },
        ],
      },
    });
  });
});

describe('bad values are refused naming the field; nothing is written', () => {
  test.each([
    [
      'a base URL that is not a URL',
      (s: Record<string, unknown>) => ({ ...s, providers: [{ ...GOOD.providers[0], baseURL: '127.0.0.1:8080' }] }),
      'providers.0.baseURL',
    ],
    [
      'a base URL that is not http',
      (s: Record<string, unknown>) => ({ ...s, providers: [{ ...GOOD.providers[0], baseURL: 'file:///etc' }] }),
      'providers.0.baseURL',
    ],
    [
      'a window typed as words',
      (s: Record<string, unknown>) => ({ ...s, providers: [{ ...GOOD.providers[0], contextWindow: 'big' }] }),
      'providers.0.contextWindow',
    ],
    [
      'two providers with one id',
      (s: Record<string, unknown>) => ({ ...s, providers: [GOOD.providers[0], GOOD.providers[0]] }),
      'providers.1.id',
    ],
    [
      'a default naming no provider',
      (s: Record<string, unknown>) => ({ ...s, defaultProvider: 'gone' }),
      'defaultProvider',
    ],
    [
      'a compaction provider that is gone',
      (s: Record<string, unknown>) => ({ ...s, compaction: { provider: 'gone' } }),
      'compaction.provider',
    ],
    [
      'a rule with a made-up action',
      (s: Record<string, unknown>) => ({ ...s, permissions: [{ permission: 'bash', pattern: 'rm', action: 'never' }] }),
      'permissions.0.action',
    ],
    [
      'an MCP server name with a space',
      (s: Record<string, unknown>) => ({ ...s, mcp: { servers: { 'my notes': { command: 'node' } } } }),
      'mcp.servers.my notes',
    ],
    [
      'a language server extension without its dot',
      (s: Record<string, unknown>) => ({
        ...s,
        lsp: { servers: [{ id: 'deno', command: ['deno', 'lsp'], extensions: ['ts'] }] },
      }),
      'lsp.servers.0.extensions.0',
    ],
  ])('%s', async (_name, change, path) => {
    const { version } = await view();
    const bytes = await readFile(file(), 'utf8');
    const r = await router.handle('settings.save', { settings: change(GOOD), base: version });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(path) } });
    if (r.ok) return;
    expect((r.error.data as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(path);
    expect(await readFile(file(), 'utf8')).toBe(bytes);
  });

  test('a key for a provider that is not in the document is refused', async () => {
    const { version } = await view();
    const r = await router.handle('settings.save', { settings: GOOD, base: version, keys: { other: 'sk-x-1234' } });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { issues: [{ path: 'keys.other' }] } },
    });
  });
});

describe('a hand edit while the screen is open', () => {
  test('is pushed as settings.changed; a save from the older form is stale with the file as it is now', async () => {
    const loaded = await view();
    const changed = new Promise<string>((resolve) => {
      const off = fixture.services.subscribe((e: AnyEvent) => {
        if (e.type === 'settings.changed') {
          off();
          resolve(e.version);
        }
      });
    });
    const hand = COMMENTED.replace('coder-7b', 'coder-32b');
    await writeFile(file(), hand);
    const version = await changed;
    const stale = await router.handle('settings.save', {
      settings: { ...loaded.settings, defaultProvider: 'custom' },
      base: loaded.version,
      keys: { custom: 'sk-never-stored' },
    });
    expect(stale).toMatchObject({
      ok: false,
      error: {
        code: 'stale',
        data: { view: { version, settings: { providers: [{ id: 'custom', model: 'coder-32b' }] } } },
      },
    });
    expect(await readFile(file(), 'utf8')).toBe(hand);
    expect((await view()).keys).toEqual({ custom: { source: 'none' } });
  });
});

describe('settings.windows', () => {
  test('windows of the providers as typed, invalid fields left out of the reckoning', async () => {
    expect(
      await router.handle('settings.windows', {
        providers: [
          { model: 'qwen2.5-coder:7b', models: ['qwen2.5-coder:7b', { id: 'llama3.1:8b' }, ''], contextWindow: 'big' },
          { model: 'my-model', contextWindow: 65_536, outputReserve: 30_000 },
        ],
      }),
    ).toEqual({
      ok: true,
      value: [
        {
          provider: 0,
          model: 'qwen2.5-coder:7b',
          window: 32_768,
          outputReserve: 16_000,
          trigger: 12_768,
          source: 'catalog',
        },
        {
          provider: 0,
          model: 'llama3.1:8b',
          window: 131_072,
          outputReserve: 16_000,
          trigger: 111_072,
          source: 'catalog',
        },
        { provider: 1, model: 'my-model', window: 65_536, outputReserve: 30_000, trigger: 35_536, source: 'settings' },
      ],
    });
  });
});

describe('settings file helpers', () => {
  test('a second reset in the same second gets its own backup name; both old files are kept', async () => {
    const now = new Date('2026-11-29T23:40:05.123Z');
    await writeFile(file(), 'first');
    const a = await backupSettingsFile(file(), now);
    await writeFile(file(), 'second');
    const b = await backupSettingsFile(file(), now);
    expect([a, b]).toEqual([`${file()}.bak-20261129-234005`, `${file()}.bak-20261129-234005-2`]);
    expect([await readFile(a, 'utf8'), await readFile(b, 'utf8')]).toEqual(['first', 'second']);
  });
});
