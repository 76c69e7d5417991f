/**
 * gc run by another store (another process) on the same data folder while this store is open. What this store
 * takes for stored — the packs it has open (deleted files it still reads through their descriptors), its tree set,
 * the blobs and trees its stat cache names, its last tree — may be gone after that gc, and a track that trusted
 * them gave trees whose objects were missing (a hostile review). The gc stamps `landfall-gc`; a store that sees the
 * stamp change trusts nothing it holds and walks the whole tree once. Checked through a third store opened afterwards
 * and `git fsck`, for a plain store and a watched one (whose no-change track answers without the lock). Also from
 * that review: gc rewrites a stat-cache file another store wrote since (it named objects this gc removed), a
 * store closing after a gc elsewhere saves nothing naming removed objects, and a store's own gc after such a gc
 * keeps the blobs its stat cache names (its last tree may be gone).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFailure } from '../../shared/errors';
import { ObjectDb } from './git/object-db';
import { SnapshotStore } from './index';
import { cleanup, hasGit, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

describe('gc by another store on the same data folder', () => {
  for (const watch of [false, true]) {
    it(`leaves ${watch ? 'a watched' : 'a plain'} store's next tracks complete`, async () => {
      const base = tempDir(`gcelse${watch ? 'w' : 'p'}`);
      made.push(base);
      const wt = join(base, 'wt');
      const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] };
      mkdirSync(join(wt, 'a/b'), { recursive: true });
      writeFileSync(join(wt, 'a/b/f'), 'one');
      writeFileSync(join(wt, 'top'), 'top');
      const a = await SnapshotStore.open({ ...opts, watch });
      const t0 = await a.track({ verify: true });
      writeFileSync(join(wt, 'a/b/f'), 'two');
      const t1 = await a.track();
      const other = await SnapshotStore.open(opts);
      const report = await other.gc({ keep: [], olderThanMs: 0 }); // keeps only the last track it knows of
      await other.close();
      expect(report.removedObjects).toBeGreaterThan(0);
      expect(await a.track()).toBe(t1); // nothing changed: the same tree, stored again if it went
      writeFileSync(join(wt, 'a/b/f'), 'one'); // back as at t0: t0's trees and blob again
      expect(await a.track()).toBe(t0);
      await a.close();
      const c = await SnapshotStore.open(opts);
      for (const [t, text] of [
        [t0, 'one'],
        [t1, 'two'],
      ] as const) {
        expect((await c.listFiles(t)).map((f) => f.path)).toEqual(['a/b/f', 'top']);
        expect(Buffer.from((await c.readFile(t, 'a/b/f')) ?? []).toString()).toBe(text);
      }
      if (hasGit()) {
        execFileSync('git', ['--git-dir', c.gitdir, 'update-ref', 'refs/tags/t0', t0]);
        execFileSync('git', ['--git-dir', c.gitdir, 'update-ref', 'refs/tags/t1', t1]);
        execFileSync('git', ['--git-dir', c.gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
      }
      await c.close();
    });
  }

  /** `git fsck --full` of the store with refs to `trees` (skipped without git). */
  const fsck = (gitdir: string, trees: string[]): void => {
    if (!hasGit()) return;
    trees.forEach((t, i) => execFileSync('git', ['--git-dir', gitdir, 'update-ref', `refs/tags/t${i}`, t]));
    execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
  };
  const text = async (s: SnapshotStore, t: string, path: string): Promise<string> =>
    Buffer.from((await s.readFile(t, path)) ?? []).toString();

  it('rewrites a stat-cache file another store wrote since, before it prunes', async () => {
    const base = tempDir('gcstale');
    made.push(base);
    const wt = join(base, 'wt');
    const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] };
    mkdirSync(join(wt, 'a'), { recursive: true });
    writeFileSync(join(wt, 'a/f'), 'one');
    const b = await SnapshotStore.open(opts);
    await b.track();
    writeFileSync(join(wt, 'a/f'), 'two');
    const a = await SnapshotStore.open(opts);
    const t2 = await a.track(); // the shared stat-cache file now names t2's objects
    await a.close();
    await b.listFiles(t2); // b reads the pack list again
    expect((await b.gc({ keep: [], olderThanMs: 0 })).removedObjects).toBeGreaterThan(0); // t2's objects go
    await b.close();
    const c = await SnapshotStore.open(opts);
    const t = await c.track({ verify: true });
    expect(t).toBe(t2);
    expect(await text(c, t, 'a/f')).toBe('two');
    await c.close();
    fsck(c.gitdir, [t]);
  });

  /**
   * A watched store after a guided step (a/f: 0 → 1, a/g stays 'g'; its stat-cache change waits for the idle save,
   * so the file on disk still names the first tree), then another store's gc keeping nothing but that file's tree.
   */
  const guidedThenGcElsewhere = async (
    tag: string,
  ): Promise<{ base: string; opts: { worktree: string; dataDir: string }; a: SnapshotStore; t1: string }> => {
    const base = tempDir(tag);
    made.push(base);
    const wt = join(base, 'wt');
    const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [], log: () => undefined };
    mkdirSync(join(wt, 'a'), { recursive: true });
    writeFileSync(join(wt, 'a/f'), '0');
    writeFileSync(join(wt, 'a/g'), 'g');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(wt, 'a'), old, old);
    const a = await SnapshotStore.open({ ...opts, watch: true, watchBackend: 'native' });
    await a.track({ verify: true });
    await a.track();
    writeFileSync(join(wt, 'a/f'), '1');
    const t1 = await a.track();
    expect(a.lastTrackKind).toBe('guided');
    const b = await SnapshotStore.open(opts);
    await b.gc({ keep: [], olderThanMs: 0 }); // keeps the first tree, removes t1's objects
    await b.close();
    return { base, opts, a, t1 };
  };

  it('a store closing after a gc elsewhere saves nothing that names removed objects', async () => {
    const { opts, a, t1 } = await guidedThenGcElsewhere('gcclose');
    await a.close(); // before the idle save
    const c = await SnapshotStore.open(opts);
    const t = await c.track({ verify: true });
    expect(t).toBe(t1);
    expect(await text(c, t, 'a/f')).toBe('1');
    await c.close();
    fsck(c.gitdir, [t]);
  });

  it("a store's own gc after a gc elsewhere keeps the blobs its stat cache names", async () => {
    const { a } = await guidedThenGcElsewhere('gcown');
    await a.gc({ keep: [], olderThanMs: 0 }); // a's last tree is gone: a/g's blob is kept all the same
    const t = await a.track({ verify: true });
    expect(await text(a, t, 'a/g')).toBe('g');
    expect(await text(a, t, 'a/f')).toBe('1');
    await a.close();
    fsck(a.gitdir, [t]);
  });

  it('marks from and prunes the packs another store wrote since this one read its pack list', async () => {
    const base = tempDir('gcpacks');
    made.push(base);
    const wt = join(base, 'wt');
    const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [], log: () => undefined };
    mkdirSync(join(wt, 'a'), { recursive: true });
    mkdirSync(join(wt, 'b'), { recursive: true });
    writeFileSync(join(wt, 'a/f'), '1');
    writeFileSync(join(wt, 'b/h'), '1');
    const a = await SnapshotStore.open(opts);
    await a.track();
    const b = await SnapshotStore.open(opts);
    writeFileSync(join(wt, 'b/h'), '2');
    const t1 = await b.track(); // b's objects: a pack a has not read
    writeFileSync(join(wt, 'a/f'), '3');
    const t2 = await a.track();
    await a.gc({ keep: [], olderThanMs: 0 });
    await a.close();
    // t1 is whole or gone, never a root whose subtrees went.
    const c = await SnapshotStore.open(opts);
    const db = new ObjectDb(c.gitdir);
    const rootKept = db.has(t1);
    db.close();
    const files = await c.listFiles(t1).then(
      (fs) => fs.map((f) => f.path),
      (e: unknown) => (isFailure(e, 'not_found') ? 'not_found' : String(e)),
    );
    expect(files).toEqual(rootKept ? ['a/f', 'b/h'] : 'not_found');
    fsck(c.gitdir, rootKept ? [t1, t2] : [t2]);
    expect(await text(c, t2, 'a/f')).toBe('3');
    await b.close();
    await c.close();
  });
});
