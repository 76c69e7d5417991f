/**
 * gc run by another store (another process) on the same data folder while this store is open. What this store
 * takes for stored — the packs it has open (deleted files it still reads through their descriptors), its tree set,
 * the blobs and trees its stat cache names, its last tree — may be gone after that gc, and a track that trusted
 * them gave trees whose objects were missing (a hostile review). The gc stamps `landfall-gc`; a store that sees the
 * stamp change trusts nothing it holds and walks the whole tree once. Checked through a third store opened afterwards
 * and `git fsck`, for a plain store and a watched one (whose no-change track answers without the lock).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
});
