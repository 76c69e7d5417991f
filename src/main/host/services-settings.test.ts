/**
 * settings.json broken while the app runs (new-user trial): the error is shown plainly through the contract
 * (app.info and settings.get name the line), Save refuses to overwrite the unreadable file, and only "Reset to
 * defaults" replaces it — after keeping the old bytes as settings.json.bak-<timestamp>. A file with comments and
 * trailing commas is not broken: it is read, and Save keeps the comments. Real services, real files.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Router } from './router';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { backupSettingsFile } from '../agent/settings/save';

let dataDir: string;
let router: Router;

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
          message: expect.stringMatching(/^settings\.json does not hold valid settings at providers\.0\.kind: /),
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

describe('settings.json with comments and trailing commas', () => {
  test('is read as the user wrote it, and Save changes only the model, keeping every comment', async () => {
    await writeFile(join(dataDir, 'settings.json'), COMMENTED);
    expect(await router.handle('app.info', {})).toMatchObject({ ok: true, value: { firstRun: false } });
    expect(await router.handle('settings.get', {})).toMatchObject({
      ok: true,
      value: { provider: 'custom', model: 'coder-7b', baseURL: 'http://127.0.0.1:8080/v1' },
    });
    const saved = await router.handle('settings.save', {
      provider: 'custom',
      model: 'coder-14b',
      baseURL: 'http://127.0.0.1:8080/v1',
    });
    expect(saved).toMatchObject({ ok: true, value: { model: 'coder-14b' } });
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(COMMENTED.replace('coder-7b', 'coder-14b'));
    expect((await readdir(dataDir)).filter((f) => f.startsWith('settings.json.bak'))).toEqual([]);
  });
});

describe('settings file helpers', () => {
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
