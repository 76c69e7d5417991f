/**
 * The watched track's edges (watch.ts, walk-guide.ts, store.ts), with each watcher backend: a worker thread runs
 * the watcher too; gc after guided tracks keeps every tree a later track reuses; an edit of info/exclude or the
 * user's index, and a suspend, make the next track a full walk; nothing reported means no walk at all (and no lock
 * file: another process holding it does not hold up a no-change track or `changed`). Each checks
 * tree ids against a store that always walks the whole tree.
 *
 * The native backend watches a folder that a walk found unwatched, or whose ctime was too recent to prove it
 * unchanged, afresh after that walk and walks it whole once more (watch-native.ts); these test folders were all
 * just made, so `warm` takes that one track before a test counts on "nothing reported".
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnapshotStore, openInWorker } from './index';
import type { WatchBackend } from './watch';
import { cleanup, tempDir } from './test-support';

let dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs) cleanup(d);
  dirs = [];
});

function project(): { base: string; wt: string } {
  const base = tempDir('watch');
  dirs.push(base);
  const wt = join(base, 'wt');
  mkdirSync(join(wt, 'd/g'), { recursive: true });
  writeFileSync(join(wt, 'd/e'), 'one');
  writeFileSync(join(wt, 'd/g/h'), 'h');
  writeFileSync(join(wt, 'top'), 'top');
  return { base, wt };
}

/** The track that walks the folders a first walk found unwatched (native) or nothing (parcel); then none is pending. */
async function warm(watched: SnapshotStore): Promise<void> {
  await watched.track();
  expect(watched.lastTrackKind).toBe(watched.watchBackend === 'native' ? 'guided' : 'none');
}

async function pair(
  base: string,
  wt: string,
  watchBackend: WatchBackend,
): Promise<{ watched: SnapshotStore; truth: SnapshotStore }> {
  const watched = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'w'), watch: true, watchBackend });
  const truth = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 't') });
  expect(watched.watching).toBe(true);
  return { watched, truth };
}

describe.each(['native', 'parcel'] as const)('watched track (%s)', (backend) => {
  it('answers the last tree without walking when nothing was reported, and walks only what was', async () => {
    const { base, wt } = project();
    const { watched, truth } = await pair(base, wt, backend);
    const first = await watched.track({ verify: true });
    expect(watched.lastTrackKind).toBe('full');
    await warm(watched);
    expect(await watched.track()).toBe(first);
    expect(watched.lastTrackKind).toBe('none');
    writeFileSync(join(wt, 'd/g/h'), 'changed');
    writeFileSync(join(wt, 'new'), 'new');
    const t = await watched.track();
    expect(watched.lastTrackKind).toBe('guided');
    expect(t).toBe(await truth.track());
    await watched.close();
    await truth.close();
  });

  it('answers a no-change track and changed() while another live process holds the lock file', async () => {
    const { base, wt } = project();
    const { watched, truth } = await pair(base, wt, backend);
    const first = await watched.track({ verify: true });
    await warm(watched);
    writeFileSync(join(wt, 'd/e'), 'two');
    const second = await watched.track();
    // The lock file of a live process on this host (the test runner's parent): a writer would wait for it.
    const lockFile = join(watched.gitdir, 'landfall.lock');
    writeFileSync(lockFile, `${process.ppid} ${hostname()} ${Date.now()}`);
    try {
      expect(await watched.track()).toBe(second);
      expect(watched.lastTrackKind).toBe('none');
      expect(await watched.changed(first, second)).toEqual([
        expect.objectContaining({ path: 'd/e', status: 'modified' }),
      ]);
    } finally {
      rmSync(lockFile);
    }
    expect(second).toBe(await truth.track());
    await watched.close();
    await truth.close();
  });

  it('runs in the snapshot worker thread too', async () => {
    const { base, wt } = project();
    const w = await openInWorker({ worktree: wt, dataDir: join(base, 'w'), watch: true, watchBackend: backend });
    const truth = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 't') });
    await w.track({ verify: true });
    writeFileSync(join(wt, 'd/e'), 'two');
    expect(await w.track()).toBe(await truth.track());
    await w.close();
    await truth.close();
  });

  it('gc after guided tracks keeps every tree a later track takes as stored', async () => {
    const { base, wt } = project();
    const { watched, truth } = await pair(base, wt, backend);
    const t1 = await watched.track({ verify: true });
    await warm(watched);
    writeFileSync(join(wt, 'd/e'), 'two');
    await watched.track();
    // Only the last track is kept: t1's tree for d/ goes, though the guided walks' tree set named it.
    await watched.gc({ keep: [], olderThanMs: 0 });
    writeFileSync(join(wt, 'd/e'), 'one');
    const t3 = await watched.track();
    expect(t3).toBe(t1);
    expect(watched.lastTrackKind).toBe('guided');
    expect((await watched.listFiles(t3)).map((f) => f.path)).toEqual(['d/e', 'd/g/h', 'top']);
    expect(new TextDecoder().decode(await watched.readFile(t3, 'd/e'))).toBe('one');
    expect(t3).toBe(await truth.track());
    await watched.close();
    await truth.close();
  });

  it('walks everything after an edit of info/exclude or of the user index', async () => {
    const { base, wt } = project();
    mkdirSync(join(wt, '.git/info'), { recursive: true });
    writeFileSync(join(wt, '.git/HEAD'), 'ref: refs/heads/main\n');
    const { watched, truth } = await pair(base, wt, backend);
    await watched.track({ verify: true });
    writeFileSync(join(wt, '.git/info/exclude'), 'top\n');
    const t = await watched.track();
    expect(watched.lastTrackKind).toBe('full');
    expect(t).toBe(await truth.track());
    expect((await watched.listFiles(t)).map((f) => f.path)).toEqual(['d/e', 'd/g/h']);
    writeFileSync(join(wt, '.git/index'), 'not an index');
    await watched.track();
    expect(watched.lastTrackKind).toBe('full');
    await watched.close();
    await truth.close();
  });

  it('walks everything after the machine was suspended (wall clock ran ahead of the monotonic clock)', async () => {
    const { base, wt } = project();
    const { watched, truth } = await pair(base, wt, backend);
    await watched.track({ verify: true });
    writeFileSync(join(wt, 'top'), 'after sleep');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 3_600_000);
    const t = await watched.track();
    expect(watched.lastTrackKind).toBe('full');
    expect(t).toBe(await truth.track());
    await watched.close();
    await truth.close();
  });

  it('a verifying track finds a change whose event was lost', async () => {
    const { base, wt } = project();
    const { watched, truth } = await pair(base, wt, backend);
    const first = await watched.track({ verify: true });
    await warm(watched);
    writeFileSync(join(wt, 'd/g/h'), 'lost');
    await watched.dropWatchEvents();
    expect(await watched.track()).toBe(first); // the hint was lost: not promised, and indeed missed
    const t = await watched.track({ verify: true });
    expect(t).not.toBe(first);
    expect(t).toBe(await truth.track());
    await watched.close();
    await truth.close();
  });
});
