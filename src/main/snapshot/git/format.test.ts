/**
 * Format layer: packs written here (a first track's, and a step's small one with its objects stored
 * uncompressed) are read by isomorphic-git (the format reference the issue names), isomorphic-git's own
 * indexPack builds a byte-identical `.idx` for each, and native git (present on CI) accepts the store with fsck. The user's index parser reads versions 2, 3 (extended flags) and 4 (prefix-compressed).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../index';
import { cleanup, hasGit, tempDir } from '../test-support';
import { readUserIndex } from '../user-index';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

describe('store format', () => {
  it('isomorphic-git reads our packs; its indexPack rebuilds each .idx byte for byte; git fsck passes', async () => {
    const base = tempDir('fmt');
    dirs.push(base);
    const wt = join(base, 'wt');
    for (let i = 0; i < 300; i++) {
      mkdirSync(join(wt, `d${i % 7}`), { recursive: true });
      writeFileSync(join(wt, `d${i % 7}`, `f${i}.txt`), `file ${i}\n`.repeat(i % 50));
    }
    const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data') });
    const t1 = await store.track(); // first track: one pack
    writeFileSync(join(wt, 'd1/f1.txt'), 'changed\n');
    const t2 = await store.track(); // a step's small pack: a blob and two trees
    const packDir = join(store.gitdir, 'objects', 'pack');
    const packs = readdirSync(packDir).filter((n) => n.endsWith('.pack'));
    expect(packs).toHaveLength(2);
    for (const t of [t1, t2]) {
      const ours = await store.listFiles(t);
      const theirs: string[] = [];
      await git.walk({
        fs,
        gitdir: store.gitdir,
        trees: [git.TREE({ ref: t })],
        map: async (path, [e]) => {
          if (e && (await e.type()) === 'blob') theirs.push(`${path}:${await e.oid()}`);
          return true;
        },
      });
      expect(theirs.sort()).toEqual(ours.map((f) => `${f.path}:${f.oid}`).sort());
    }
    const blob = await git.readBlob({ fs, gitdir: store.gitdir, oid: t2, filepath: 'd1/f1.txt' });
    expect(Buffer.from(blob.blob).toString()).toBe('changed\n');
    for (const packName of packs) {
      const scratch = join(base, `scratch-${packName}`);
      mkdirSync(join(scratch, 'objects', 'pack'), { recursive: true });
      copyFileSync(join(packDir, packName), join(scratch, 'objects', 'pack', packName));
      await git.indexPack({ fs, dir: scratch, gitdir: scratch, filepath: join('objects', 'pack', packName) });
      const idx = packName.replace(/\.pack$/, '.idx');
      expect(readFileSync(join(scratch, 'objects', 'pack', idx))).toEqual(readFileSync(join(packDir, idx)));
    }
    if (hasGit()) {
      execFileSync('git', ['--git-dir', store.gitdir, 'fsck', '--full', '--no-dangling'], { stdio: 'pipe' });
      expect(
        execFileSync('git', ['--git-dir', store.gitdir, 'ls-tree', '-r', '--name-only', t2], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean),
      ).toEqual((await store.listFiles(t2)).map((f) => f.path));
    }
    await store.close();
  });
});

/** One index entry: 62 fixed bytes (only mode and flags filled), then the path encoded per version. */
function entry(path: string, version: number, prev: string, extended = false): Buffer {
  const fixed = Buffer.alloc(extended ? 64 : 62);
  fixed.writeUInt32BE(0o100644, 24);
  fixed.writeUInt16BE((extended ? 0x4000 : 0) | Math.min(path.length, 0xfff), 60);
  if (version === 4) {
    const [a, b] = [Buffer.from(prev), Buffer.from(path)];
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    const drop = a.length - common; // in bytes, as git counts
    if (drop > 127) throw new Error('test helper handles one-byte varints only');
    return Buffer.concat([fixed, Buffer.from([drop]), b.subarray(common), Buffer.alloc(1)]);
  }
  const len = fixed.length + Buffer.byteLength(path);
  const padded = Math.ceil((len + 1) / 8) * 8;
  return Buffer.concat([fixed, Buffer.from(path), Buffer.alloc(padded - len)]);
}

function indexFile(version: number, paths: string[], extendedAt = -1): Buffer {
  const head = Buffer.alloc(12);
  head.write('DIRC', 0, 'latin1');
  head.writeUInt32BE(version, 4);
  head.writeUInt32BE(paths.length, 8);
  let prev = '';
  const body = paths.map((p, i) => {
    const e = entry(p, version, prev, i === extendedAt);
    prev = p;
    return e;
  });
  return Buffer.concat([head, ...body, Buffer.alloc(20)]);
}

describe("user's index (read only)", () => {
  it('parses versions 2, 3 and 4 into tracked files and the folders holding them', () => {
    const base = tempDir('idx');
    dirs.push(base);
    const paths = ['a.txt', 'config/local.env', 'config/sub/deep.txt', 'config/sub/é.txt', 'z'];
    for (const [version, ext] of [
      [2, -1],
      [3, 1],
      [4, -1],
    ] as const) {
      const file = join(base, `index${version}`);
      writeFileSync(file, indexFile(version, paths, ext));
      const t = readUserIndex(file);
      expect([...t.files]).toEqual(paths);
      expect([...t.dirs].sort()).toEqual(['config', 'config/sub']);
    }
    expect(readUserIndex(join(base, 'absent')).files.size).toBe(0);
  });

  it('reads the index isomorphic-git writes, and native git v4 when git is present', async () => {
    const base = tempDir('idx2');
    dirs.push(base);
    writeFileSync(join(base, 'one.txt'), '1');
    mkdirSync(join(base, 'sub'));
    writeFileSync(join(base, 'sub', 'two.txt'), '2');
    await git.init({ fs, dir: base });
    await git.add({ fs, dir: base, filepath: ['one.txt', 'sub/two.txt'] });
    expect([...readUserIndex(join(base, '.git', 'index')).files]).toEqual(['one.txt', 'sub/two.txt']);
    if (hasGit()) {
      execFileSync('git', ['update-index', '--index-version', '4'], { cwd: base });
      expect(readFileSync(join(base, '.git', 'index')).readUInt32BE(4)).toBe(4);
      expect([...readUserIndex(join(base, '.git', 'index')).files]).toEqual(['one.txt', 'sub/two.txt']);
    }
  });
});
