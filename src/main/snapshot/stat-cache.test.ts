/** The stat cache file round-trips exactly, including the root folder's '' path, and damage gives an empty cache. */
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStatCache, persistChange, saveStatCache } from './stat-cache';
import { emptyChange, emptyStatCache, sameDir, type StatCacheChange, type StatCacheData } from './stat-entries';
import { cleanup, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

/** The change from `prev` to `next`, every entry compared (what a track hands persistChange). */
function changeOf(prev: StatCacheData, next: StatCacheData): StatCacheChange {
  const c = emptyChange(next.tree);
  for (const [k, v] of next.entries) if (prev.entries.get(k) !== v) c.entries.set(k, v);
  for (const [k, v] of next.dirs) if (!sameDir(prev.dirs.get(k), v)) c.dirs.set(k, v);
  for (const t of next.trees) if (!prev.trees.has(t)) c.trees.add(t);
  for (const k of prev.entries.keys()) if (!next.entries.has(k)) c.goneEntries.push(k);
  for (const k of prev.dirs.keys()) if (!next.dirs.has(k)) c.goneDirs.push(k);
  for (const t of prev.trees) if (!next.trees.has(t)) c.goneTrees.push(t);
  return c;
}

describe('stat cache file', () => {
  it('round-trips files, folders (root only, and with an empty folder listing), trees and the racy marks', () => {
    const dir = tempDir('cache');
    dirs.push(dir);
    const file = join(dir, 'c');
    const oid = (c: string): string => c.repeat(40);
    const data: StatCacheData = {
      tree: oid('a'),
      trees: new Set([oid('a'), oid('b')]),
      entries: new Map([
        [
          'x.txt',
          {
            size: 3,
            mtimeMs: 1_700_000_000_123.456,
            ctimeMs: 1_700_000_001_000.5,
            ino: 2 ** 40 + 7,
            mode: 0o100644,
            oid: oid('c'),
            racy: false,
            seen: 0,
          },
        ],
        [
          'd/é\nnewline',
          { size: 0, mtimeMs: 1, ctimeMs: 2, ino: 3, mode: 0o120777, oid: oid('d'), racy: true, seen: 0 },
        ],
      ]),
      dirs: new Map([
        ['', { mtimeMs: 5.25, ctimeMs: 6, ino: 7, names: 'fx.txt/dd', oid: oid('a'), count: 2, racy: false, seen: 0 }],
        ['d', { mtimeMs: 8, ctimeMs: 9, ino: 10, names: 'fé\nnewline', oid: oid('b'), count: 1, racy: true, seen: 0 }],
        ['d/empty', { mtimeMs: 8, ctimeMs: 9, ino: 11, names: '', oid: undefined, count: 0, racy: false, seen: 0 }],
      ]),
    };
    saveStatCache(file, data);
    expect(loadStatCache(file)).toEqual(data);
    const rootOnly: StatCacheData = {
      ...emptyStatCache(),
      dirs: new Map([
        ['', { mtimeMs: 1, ctimeMs: 1, ino: 1, names: '', oid: undefined, count: 0, racy: false, seen: 0 }],
      ]),
    };
    saveStatCache(file, rootOnly);
    expect(loadStatCache(file)).toEqual(rootOnly);
    writeFileSync(file, 'garbage');
    expect(loadStatCache(file)).toEqual(emptyStatCache());
    expect(loadStatCache(join(dir, 'absent'))).toEqual(emptyStatCache());
  });

  it('journal: appended changes replay exactly; a torn last record is cut off and the earlier state returned', () => {
    const dir = tempDir('journal');
    dirs.push(dir);
    const file = join(dir, 'c');
    const e = (n: number, oid: string) => ({
      size: n,
      mtimeMs: n,
      ctimeMs: n,
      ino: n,
      mode: 0o100644,
      oid: oid.repeat(40),
      racy: false,
      seen: 0,
    });
    const d = (n: number, oid: string | undefined) => ({
      mtimeMs: n,
      ctimeMs: n,
      ino: n,
      names: 'fa',
      oid: oid?.repeat(40),
      count: 1,
      racy: false,
      seen: 0,
    });
    const v1: StatCacheData = {
      tree: '1'.repeat(40),
      trees: new Set(['1'.repeat(40), '2'.repeat(40)]),
      entries: new Map(Array.from({ length: 200 }, (_, i) => [`f${i}`, e(i, 'a')])),
      dirs: new Map([
        ['', d(1, '1')],
        ['gone', d(2, '2')],
      ]),
    };
    saveStatCache(file, v1);
    const v2: StatCacheData = {
      tree: '3'.repeat(40),
      trees: new Set(['3'.repeat(40), '2'.repeat(40)]),
      entries: new Map(v1.entries),
      dirs: new Map([['', d(5, '3')]]),
    };
    v2.entries.set('f1', e(1000, 'b'));
    v2.entries.delete('f2');
    v2.entries.set('new', e(7, 'c'));
    persistChange(file, v2, changeOf(v1, v2));
    const journal = `${file}.journal`;
    expect(statSync(journal).size).toBeLessThan(statSync(file).size);
    expect(loadStatCache(file)).toEqual(v2);
    const v3: StatCacheData = { ...v2, tree: '4'.repeat(40), entries: new Map(v2.entries) };
    v3.entries.delete('new');
    persistChange(file, v3, changeOf(v2, v3));
    expect(loadStatCache(file)).toEqual(v3);
    const good = readFileSync(journal).length;
    appendFileSync(journal, Buffer.from([9, 0, 0, 0, 1, 2, 3, 4, 5])); // a record cut short by a crash
    expect(loadStatCache(file)).toEqual(v3);
    expect(statSync(journal).size).toBe(good);
  });
});
