/**
 * A full walk brings the stat cache up to date in place (stat-merge.ts): records found as they were stay the very
 * same objects, what the walk neither stamped nor recorded goes, and the change it answers is exactly what the
 * journal needs — checked directly, and through a real store whose cache file (replayed journal) must list exactly
 * the files and folders of the work tree after edits, a removed folder and a new one.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './store';
import { loadStatCache } from './stat-cache';
import { mergeFull } from './stat-merge';
import type { DirRecord, StatCacheData, StatEntry } from './stat-entries';
import { cleanup, tempDir } from './test-support';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) cleanup(d);
  dirs = [];
});

const entry = (n: number, seen = 0): StatEntry => ({
  size: n,
  mtimeMs: n,
  ctimeMs: n,
  ino: n,
  mode: 0o100644,
  oid: String(n % 10).repeat(40),
  racy: false,
  seen,
});
const dir = (names: string, oid: string, seen = 0): DirRecord => ({
  mtimeMs: 1,
  ctimeMs: 1,
  ino: 1,
  names,
  oid: oid.repeat(40),
  count: names.split('/').length,
  racy: false,
  seen,
});

describe('mergeFull', () => {
  it('keeps stamped records as the same objects, puts what changed, drops the rest, and answers exactly that', () => {
    const a = entry(1);
    const c = entry(3);
    const root = dir('fa/fb/dd', '1');
    const cache: StatCacheData = {
      tree: '1'.repeat(40),
      trees: new Set(['1'.repeat(40), '2'.repeat(40)]),
      entries: new Map([
        ['a', a],
        ['b', entry(2)],
        ['d/c', c],
      ]),
      dirs: new Map([
        ['', root],
        ['d', dir('fc', '2')],
      ]),
    };
    // Walk 7 found a and c as they were, b changed, d/ removed (with d/c): c is stamped by an older walk only.
    a.seen = 7;
    c.seen = 6;
    const b2 = entry(12, 7);
    const root2 = dir('fa/fb', '3', 7);
    const change = mergeFull(
      cache,
      { gen: 7, entries: new Map([['b', b2]]), dirs: new Map([['', root2]]), trees: new Set(['3'.repeat(40)]) },
      '3'.repeat(40),
    );
    expect([...cache.entries]).toEqual([
      ['a', a],
      ['b', b2],
    ]);
    expect(cache.entries.get('a')).toBe(a);
    expect([...cache.dirs]).toEqual([['', root2]]);
    expect(cache.tree).toBe('3'.repeat(40));
    expect([...cache.trees]).toEqual(['3'.repeat(40)]);
    expect(change).toEqual({
      tree: '3'.repeat(40),
      entries: new Map([['b', b2]]),
      dirs: new Map([['', root2]]),
      trees: new Set(['3'.repeat(40)]),
      goneEntries: ['d/c'],
      goneDirs: ['d'],
      goneTrees: ['1'.repeat(40), '2'.repeat(40)],
    });
  });

  it('a walk that found everything as it was changes nothing and allocates no record', () => {
    const a = entry(1, 4);
    const root = dir('fa', '1', 4);
    const cache: StatCacheData = {
      tree: '1'.repeat(40),
      trees: new Set(['1'.repeat(40)]),
      entries: new Map([['a', a]]),
      dirs: new Map([['', root]]),
    };
    const change = mergeFull(
      cache,
      { gen: 4, entries: new Map(), dirs: new Map(), trees: new Set(['1'.repeat(40)]) },
      '1'.repeat(40),
    );
    expect(change.entries.size + change.dirs.size + change.trees.size).toBe(0);
    expect(change.goneEntries.length + change.goneDirs.length + change.goneTrees.length).toBe(0);
    expect(cache.entries.get('a')).toBe(a);
    expect(cache.dirs.get('')).toBe(root);
  });
});

describe('full tracks of a real store', () => {
  it('leave a cache file (with its journal) that lists exactly the files and folders of the tree', async () => {
    const base = tempDir('merge');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(join(wt, 'old/deep'), { recursive: true });
    mkdirSync(join(wt, 'keep'), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(wt, `keep/f${i}`), `file ${i}\n`);
    writeFileSync(join(wt, 'old/deep/x'), 'x');
    writeFileSync(join(wt, 'old/y'), 'y');
    const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data') });
    await store.track();
    rmSync(join(wt, 'old'), { recursive: true });
    writeFileSync(join(wt, 'keep/f3'), 'changed, longer than before\n');
    mkdirSync(join(wt, 'new'));
    writeFileSync(join(wt, 'new/z'), 'z');
    await store.track();
    await store.track(); // a walk that finds everything as it was: nothing is removed
    await store.close();
    const onDisk = loadStatCache(join(store.gitdir, 'landfall-stat-cache.bin'));
    const files = [...Array.from({ length: 30 }, (_, i) => `keep/f${i}`), 'new/z'].sort();
    expect([...onDisk.entries.keys()].sort()).toEqual(files);
    expect([...onDisk.dirs.keys()].sort()).toEqual(['', 'keep', 'new']);
    expect(onDisk.entries.get('keep/f3')?.size).toBe('changed, longer than before\n'.length);
    const reopened = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data') });
    expect(await reopened.track()).toBe(onDisk.tree);
    expect((await reopened.listFiles(onDisk.tree as string)).map((f) => f.path)).toEqual(files);
    await reopened.close();
  });
});
