/** The stat cache file round-trips exactly, including the root folder's '' path, and damage gives an empty cache. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyStatCache, loadStatCache, saveStatCache, type StatCacheData } from './stat-cache';
import { cleanup, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

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
        ['x.txt', { size: 3, mtimeMs: 1_700_000_000_123.456, ctimeMs: 1_700_000_001_000.5, ino: 2 ** 40 + 7, mode: 0o100644, oid: oid('c'), racy: false }],
        ['d/é\nnewline', { size: 0, mtimeMs: 1, ctimeMs: 2, ino: 3, mode: 0o120777, oid: oid('d'), racy: true }],
      ]),
      dirs: new Map([
        ['', { mtimeMs: 5.25, ctimeMs: 6, ino: 7, names: 'fx.txt/dd', oid: oid('a'), count: 2, racy: false }],
        ['d', { mtimeMs: 8, ctimeMs: 9, ino: 10, names: 'fé\nnewline', oid: oid('b'), count: 1, racy: true }],
        ['d/empty', { mtimeMs: 8, ctimeMs: 9, ino: 11, names: '', oid: undefined, count: 0, racy: false }],
      ]),
    };
    saveStatCache(file, data);
    expect(loadStatCache(file)).toEqual(data);
    const rootOnly: StatCacheData = { ...emptyStatCache(), dirs: new Map([['', { mtimeMs: 1, ctimeMs: 1, ino: 1, names: '', oid: undefined, count: 0, racy: false }]]) };
    saveStatCache(file, rootOnly);
    expect(loadStatCache(file)).toEqual(rootOnly);
    writeFileSync(file, 'garbage');
    expect(loadStatCache(file)).toEqual(emptyStatCache());
    expect(loadStatCache(join(dir, 'absent'))).toEqual(emptyStatCache());
  });
});
