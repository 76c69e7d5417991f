/**
 * A guided track's stat-cache change is not written on the step's path (store.ts `persistLater`): it waits for the
 * store to be idle, gc or close. Checked here: the files on disk lag right after a guided track, catch up when the
 * store is idle and on close (every entry as the store holds it), and a store opened on a cache that lags (the
 * process died before writing) still tracks exactly, also after a gc that prunes everything but that cache's tree.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { loadStatCache } from './stat-cache';
import { cleanup, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

async function setUp(): Promise<{ wt: string; data: string; store: SnapshotStore }> {
  const base = tempDir('later');
  made.push(base);
  const wt = join(base, 'wt');
  mkdirSync(join(wt, 'src/deep'), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(wt, `src/deep/f${i}.ts`), `export const v = ${i};\n`);
  const data = join(base, 'data');
  const store = await SnapshotStore.open({ worktree: wt, dataDir: data, watch: true, watchBackend: 'native' });
  return { wt, data, store };
}

const cacheOf = (store: SnapshotStore): ReturnType<typeof loadStatCache> =>
  loadStatCache(join(store.gitdir, 'landfall-stat-cache.bin'));

describe('stat cache written later', () => {
  it('lags right after a guided track, catches up when idle and on close', async () => {
    const { wt, store } = await setUp();
    const first = await store.track({ verify: true });
    expect(cacheOf(store).tree).toBe(first); // a full walk writes at once
    writeFileSync(join(wt, 'src/deep/f1.ts'), 'export const v = 100;\n');
    const second = await store.track();
    expect(store.lastTrackKind).toBe('guided');
    expect(second).not.toBe(first);
    expect(cacheOf(store).tree).toBe(first); // not on the step's path
    await expect.poll(() => cacheOf(store).tree, { timeout: 60_000, interval: 50 }).toBe(second);
    writeFileSync(join(wt, 'src/deep/f2.ts'), 'export const v = 2000;\n');
    const third = await store.track();
    expect(store.lastTrackKind).toBe('guided');
    await store.close();
    const disk = cacheOf(store);
    expect(disk.tree).toBe(third);
    const st = statSync(join(wt, 'src/deep/f2.ts'));
    expect(disk.entries.get('src/deep/f2.ts')).toMatchObject({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  });

  it('a store opened on a cache that lags behind tracks exactly', async () => {
    const { wt, data, store } = await setUp();
    const first = await store.track({ verify: true });
    const file = join(store.gitdir, 'landfall-stat-cache.bin');
    const before = readFileSync(file); // a full walk writes the whole cache and no journal
    let last = first;
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(wt, `src/deep/f${i}.ts`), `export const v = ${i * 7};\n`);
      last = await store.track();
    }
    await store.close();
    // As if the process had died before writing the guided tracks' changes.
    writeFileSync(file, before);
    rmSync(`${file}.journal`, { force: true });
    expect(cacheOf(store).tree).toBe(first);
    const other = await SnapshotStore.open({ worktree: wt, dataDir: data });
    try {
      // gc first: it keeps the last tree the cache knows (`first`) and must not leave a later track a tree it
      // takes for stored (gc-reopen.test.ts).
      await other.gc({ keep: [], olderThanMs: 0 });
      expect(await other.track()).toBe(last);
      expect((await other.listFiles(last)).length).toBe(5);
    } finally {
      await other.close();
    }
  });
});
