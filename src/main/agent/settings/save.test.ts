/**
 * Saving settings.json (save.ts) on real files: the stale rule — a save naming the version its values were loaded
 * from is refused `stale` once the file changed on disk (a hand edit, another window), byte for byte nothing
 * written, and `data.version` names the file's version now; a save on that version goes through — and the edits a
 * screen save makes keep the user's comments and key order, also when it adds a key the file left to its default
 * (`permissions` left out, `lsp` with no `servers`, `mcp` with no `servers`).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSettingsFile, settingsVersion } from './read';
import { saveSettings } from './save';
import type { Settings } from './schema';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'landfall-save-'));
  file = join(dir, 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HAND = `{
  // the box under the desk
  "defaultProvider": "box",
  "providers": [
    { "id": "box", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:8080/v1", "model": "coder" }, // fast
  ],
}
`;

/** The settings as the file holds them now (the screen's loaded values) and their version. */
async function loaded(): Promise<{ settings: Settings; version: string }> {
  const state = await readSettingsFile(file);
  if (!state.settings) throw new Error(state.error?.message ?? 'no settings');
  return { settings: state.settings, version: state.version };
}

describe('the stale rule', () => {
  it('a save loaded before a hand edit is refused stale; nothing is written; the version now is named', async () => {
    await writeFile(file, HAND);
    const form = await loaded();
    const edited = HAND.replace('"coder"', '"coder-14b"');
    await writeFile(file, edited);
    const r = await saveSettings(
      file,
      { ...form.settings, defaultProvider: 'box', permissions: [] },
      { base: form.version },
    );
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'stale',
        message: 'settings.json was changed on disk since these settings were loaded; nothing was saved.',
        hint: 'Look at the values the file holds now, then save again.',
        data: { version: settingsVersion(Buffer.from(edited)) },
      },
    });
    expect(await readFile(file, 'utf8')).toBe(edited);
    // loaded again, the same change goes through and keeps the hand edit and its comments
    const again = await loaded();
    const rule = { permission: 'bash' as const, pattern: 'npm test', action: 'allow' as const };
    const saved = await saveSettings(file, { ...again.settings, permissions: [rule] }, { base: again.version });
    expect(saved.ok).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(
      edited.replace(
        '  ],\n}',
        '  ],\n  "permissions": [\n    {\n      "permission": "bash",\n      "pattern": "npm test",\n      "action": "allow"\n    }\n  ],\n}',
      ),
    );
  });

  it('a file created, deleted or re-saved with other bytes since loading is stale too; the same bytes are not', async () => {
    const absent = await readSettingsFile(file);
    expect(absent.version).toBe('absent');
    await writeFile(file, HAND);
    const base = { defaultProvider: 'x', providers: [], permissions: [] };
    expect(await saveSettings(file, base, { base: absent.version })).toMatchObject({
      ok: false,
      error: { code: 'stale' },
    });
    const form = await loaded();
    await writeFile(file, HAND.replace(/\n/g, '\r\n')); // line endings only: other bytes, another version
    expect(await saveSettings(file, form.settings, { base: form.version })).toMatchObject({
      ok: false,
      error: { code: 'stale' },
    });
    await writeFile(file, HAND); // the very bytes the form was loaded from: the same version
    expect((await saveSettings(file, form.settings, { base: form.version })).ok).toBe(true);
    await rm(file);
    expect(await saveSettings(file, form.settings, { base: form.version })).toMatchObject({
      ok: false,
      error: { code: 'stale', data: { version: 'absent' } },
    });
  });

  it('invalid settings are refused first, with one issue per field', async () => {
    await writeFile(file, HAND);
    const form = await loaded();
    const r = await saveSettings(
      file,
      {
        ...form.settings,
        providers: [{ ...form.settings.providers[0], baseURL: '127.0.0.1:8080', contextWindow: 'big' }],
      },
      { base: form.version },
    );
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        data: {
          issues: [
            { path: 'providers.0.baseURL', message: expect.any(String) },
            { path: 'providers.0.contextWindow', message: expect.any(String) },
          ],
        },
      },
    });
    expect(await readFile(file, 'utf8')).toBe(HAND);
  });
});

describe('keys the file left to their defaults', () => {
  it('lsp.servers and mcp.servers added under an lsp / mcp key that had none: comments kept', async () => {
    const text = `{
  "defaultProvider": "box", // mine
  "providers": [],
  "lsp": { "disabled": ["yaml"] },
  "mcp": {},
}
`;
    await writeFile(file, text);
    const form = await loaded();
    const next = {
      ...form.settings,
      lsp: {
        disabled: ['yaml'],
        servers: [{ id: 'deno', command: ['deno', 'lsp'], extensions: ['.ts'], rootMarkers: [] }],
      },
      mcp: { servers: { notes: { command: 'node', args: ['s.mjs'], env: {} } } },
    };
    const r = await saveSettings(file, next, { base: form.version });
    expect(r.ok).toBe(true);
    const out = await readFile(file, 'utf8');
    expect(out.startsWith('{\n  "defaultProvider": "box", // mine\n')).toBe(true);
    expect((await loaded()).settings).toEqual(next);
    expect((await readdirNames()).filter((n) => n.includes('.bak'))).toEqual([]);
  });
});

async function readdirNames(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return readdir(dir);
}
