/**
 * gc on a store opened on a stat cache written after guided tracks. A guided track only adds to the cache's set of
 * stored trees (it may then name trees no longer in the last track), and a track does not store a tree that set
 * names. gc must therefore make the set exactly the last track's before it prunes — also in a freshly opened
 * store, which cannot know how the set on disk was made — or it prunes trees a later track takes for stored (a
 * hostile review: the work tree put back as it was gave a tree the store no longer had).
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

describe('gc after reopening', () => {
  it('prunes only what no later track can take for stored', async () => {
    const base = tempDir('gcreopen');
    made.push(base);
    const wt = join(base, 'wt');
    const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] };
    mkdirSync(join(wt, 'a/b'), { recursive: true });
    writeFileSync(join(wt, 'a/b/f'), 'one');
    writeFileSync(join(wt, 'top'), 'top');
    const watched = await SnapshotStore.open({ ...opts, watch: true });
    const t0 = await watched.track({ verify: true });
    writeFileSync(join(wt, 'a/b/f'), 'two');
    await watched.track();
    expect(watched.lastTrackKind).toBe('guided');
    await watched.close(); // the cache on disk names t0's trees and the guided track's
    const s = await SnapshotStore.open(opts);
    await s.gc({ keep: [], olderThanMs: 0 }); // keeps the last track only
    writeFileSync(join(wt, 'a/b/f'), 'one'); // back as at t0: t0's trees again
    expect(await s.track()).toBe(t0);
    expect((await s.listFiles(t0)).map((f) => f.path)).toEqual(['a/b/f', 'top']);
    if (hasGit()) {
      execFileSync('git', ['--git-dir', s.gitdir, 'update-ref', 'refs/tags/t0', t0]);
      execFileSync('git', ['--git-dir', s.gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
    }
    await s.close();
  });
});
