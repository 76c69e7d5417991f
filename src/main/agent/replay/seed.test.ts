/**
 * Replay seeding never overwrites a file whose bytes differ from the recording's base (trial: a replay into a
 * folder holding another hydra/utils.py replaced it silently). Real service, real SQLite + snapshot store in temp
 * folders, the real hydra corpus session.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTemp, harness, SESSIONS_DIR, tempDir } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { fileBytes, loadCorpusSession } from './corpus';
import { planSeed } from './seed';

const HYDRA = path.join(SESSIONS_DIR, 'swea-hydra-1915-kimik2');
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function baseOf(rel: string): Promise<Buffer> {
  const c = await loadCorpusSession(HYDRA);
  if (!c.ok) throw new Error(c.error.message);
  const f = c.value.files.find((x) => x.path === rel);
  if (!f) throw new Error(`no ${rel}`);
  return fileBytes(f);
}

describe("replay seeding keeps the user's files", () => {
  it('refuses with `exists` listing the differing file; nothing is written, no turn runs', async () => {
    h = await harness();
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), 'MY OWN utils\n');
    const s = h.newSession();
    const r = await h.svc.replay(s, HYDRA, { mode: 'recorded' });
    expect(!r.ok && r.error.code).toBe('exists');
    expect(!r.ok && r.error.data?.files).toEqual(['hydra/utils.py']);
    expect(readFileSync(path.join(h.root, 'hydra/utils.py'), 'utf8')).toBe('MY OWN utils\n');
    expect(existsSync(path.join(h.root, 'hydra/_internal/utils.py'))).toBe(false);
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.messages).toEqual([]);
  });

  it('--force backs the original up into the data folder, says where, and replays', async () => {
    h = await harness();
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), 'MY OWN utils\n');
    const r = await h.svc.replay(h.newSession(), HYDRA, { mode: 'recorded', force: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.seed?.backedUp).toEqual(['hydra/utils.py']);
    const backupDir = r.value.seed?.backupDir as string;
    expect(path.relative(h.dataDir, backupDir).startsWith('..')).toBe(false);
    expect(readFileSync(path.join(backupDir, 'hydra/utils.py'), 'utf8')).toBe('MY OWN utils\n');
    expect(r.value.userMessageIds.length).toBeGreaterThan(0);
  });

  it('files already holding the base bytes are left alone and need no force', async () => {
    h = await harness();
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), await baseOf('hydra/utils.py'));
    const r = await h.svc.replay(h.newSession(), HYDRA, { mode: 'recorded' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.seed?.unchanged).toEqual(['hydra/utils.py']);
    expect(r.value.seed?.written.sort()).toEqual([
      'hydra/_internal/instantiate/_instantiate2.py',
      'hydra/_internal/utils.py',
    ]);
    expect(r.value.seed?.backupDir).toBeUndefined();
  });

  it('a folder where a base file belongs, and a path leaving the project, are refused', async () => {
    const root = tempDir('seed');
    try {
      mkdirSync(path.join(root, 'a.txt'));
      const plan = await planSeed(root, [
        { path: 'a.txt', encoding: 'utf8', content: 'x' },
        { path: 'b.txt', encoding: 'utf8', content: 'y' },
      ]);
      expect(plan.ok && [plan.value.differing.map((f) => f.path), plan.value.missing.map((f) => f.path)]).toEqual([
        ['a.txt'],
        ['b.txt'],
      ]);
      const out = await planSeed(root, [{ path: '../escape.txt', encoding: 'utf8', content: 'x' }]);
      expect(!out.ok && out.error.code).toBe('invalid_input');
    } finally {
      cleanupTemp(root);
    }
  });

  it('a folder that is a symlink out of the project is refused (outside_root), with force too; nothing lands outside', async () => {
    const outside = tempDir('seed-outside');
    try {
      h = await harness();
      symlinkSync(outside, path.join(h.root, 'hydra'));
      for (const force of [false, true]) {
        const r = await h.svc.replay(h.newSession(), HYDRA, { mode: 'recorded', force });
        expect(!r.ok && r.error.code).toBe('outside_root');
        expect(readdirSync(outside)).toEqual([]);
      }
    } finally {
      cleanupTemp(outside);
    }
  });

  it('a link at the path of a base file is replaced by the seed (force), never written through', async () => {
    const outside = tempDir('seed-outside');
    try {
      h = await harness();
      writeFileSync(path.join(outside, 'utils.py'), 'OUTSIDE\n');
      mkdirSync(path.join(h.root, 'hydra'));
      symlinkSync(path.join(outside, 'utils.py'), path.join(h.root, 'hydra/utils.py'));
      const r = await h.svc.replay(h.newSession(), HYDRA, { mode: 'recorded', force: true });
      if (!r.ok) throw new Error(r.error.message);
      expect(readFileSync(path.join(outside, 'utils.py'), 'utf8')).toBe('OUTSIDE\n');
      expect(lstatSync(path.join(h.root, 'hydra/utils.py')).isFile()).toBe(true);
      expect(readFileSync(path.join(h.root, 'hydra/utils.py'))).toEqual(await baseOf('hydra/utils.py'));
    } finally {
      cleanupTemp(outside);
    }
  });
});
