/**
 * SnapshotStore on real temp folders: tree ids equal git's, ignore rules re-read per track, size limit reported,
 * plain folders, symlinks and modes, restore/revert/patch/diff behaviour, gc retention, locking, and the worker.
 */
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  lstatSync,
  readdirSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFailure } from '../../shared/errors';
import { openInWorker, SnapshotStore } from './index';
import { cleanup, hashFolder, hasGit, nativeWriteTree, oracleTreeId, readState, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

function setup(tag: string): { wt: string; data: string; base: string } {
  const base = tempDir(tag);
  dirs.push(base);
  const wt = join(base, 'wt');
  mkdirSync(wt);
  return { wt, data: join(base, 'data'), base };
}

function put(root: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
}

describe('track', () => {
  it('gives the tree id native git gives (files, exec bit, symlinks, sort order, unicode)', async () => {
    const { wt, data, base } = setup('ids');
    put(wt, {
      'a.txt': 'a\n',
      'src/x.ts': 'x\n',
      'src-x': 's\n',
      'src.d/y': 'y\n',
      'é/ü.txt': 'u\n',
      'bin/run': '#!/bin/sh\n',
      empty: '',
    });
    chmodSync(join(wt, 'bin/run'), 0o755);
    symlinkSync('../a.txt', join(wt, 'src/link'));
    mkdirSync(join(wt, 'emptydir'));
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const id = await store.track();
    expect(id).toBe(oracleTreeId(wt));
    if (hasGit()) expect(id).toBe(nativeWriteTree(wt, join(base, 'native')));
    await store.close();
  });

  it('opening clears what a crash left: temporary files and a .pack whose .idx never arrived', async () => {
    const { wt, data } = setup('orphans');
    put(wt, { 'a.txt': 'a' });
    const first = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t = await first.track();
    await first.close();
    const packDir = join(first.gitdir, 'objects', 'pack');
    const kept = readdirSync(packDir).sort();
    writeFileSync(join(packDir, `pack-${'ab'.repeat(20)}.pack`), 'half a pack');
    writeFileSync(join(packDir, 'tmp_pack_123_abcd'), 'temp');
    const again = await SnapshotStore.open({ worktree: wt, dataDir: data });
    expect(readdirSync(packDir).sort()).toEqual(kept);
    expect(await again.track()).toBe(t);
    await again.close();
  });

  it('writes nothing inside the work tree and stores under dataDir/snapshot/<projectId>/<hash>', async () => {
    const { wt, data } = setup('loc');
    put(wt, { 'a.txt': 'a' });
    const before = readState(wt);
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data, projectId: 'p1' });
    await store.track();
    expect(readdirSync(wt)).toEqual(['a.txt']);
    expect(readState(wt)).toEqual(before);
    expect(store.gitdir.startsWith(join(data, 'snapshot', 'p1'))).toBe(true);
    expect(store.gitdir).toMatch(/[0-9a-f]{16}$/);
    await store.close();
  });

  it('re-reads .gitignore each track: a newly ignored file leaves the next tree, an unignored one joins', async () => {
    const { wt, data } = setup('ign');
    put(wt, { 'keep.txt': 'k', 'log/a.log': 'l', 'sub/x.tmp': 't', 'sub/y.txt': 'y' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const paths = async (): Promise<string[]> => (await store.listFiles(await store.track())).map((f) => f.path);
    expect(await paths()).toEqual(['keep.txt', 'log/a.log', 'sub/x.tmp', 'sub/y.txt']);
    writeFileSync(join(wt, '.gitignore'), 'log/\n*.tmp\n');
    expect(await paths()).toEqual(['.gitignore', 'keep.txt', 'sub/y.txt']);
    writeFileSync(join(wt, 'sub/.gitignore'), '!x.tmp\n');
    expect(await paths()).toEqual(['.gitignore', 'keep.txt', 'sub/.gitignore', 'sub/x.tmp', 'sub/y.txt']);
    writeFileSync(join(wt, '.gitignore'), '');
    expect(await paths()).toEqual(['.gitignore', 'keep.txt', 'log/a.log', 'sub/.gitignore', 'sub/x.tmp', 'sub/y.txt']);
    await store.close();
  });

  it('skips an untracked 3 MB file, reports it in lastSkipped and the log, and keeps the rest', async () => {
    const { wt, data } = setup('big');
    put(wt, { 'small.txt': 's' });
    writeFileSync(join(wt, 'big.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
    const lines: string[] = [];
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data, log: (l) => lines.push(l) });
    const id = await store.track();
    expect((await store.listFiles(id)).map((f) => f.path)).toEqual(['small.txt']);
    expect(store.lastSkipped).toEqual([{ path: 'big.bin', reason: 'too_large', size: 3 * 1024 * 1024 }]);
    expect(lines).toEqual([`snapshot: skipped big.bin (too_large, ${3 * 1024 * 1024} bytes)`]);
    rmSync(join(wt, 'big.bin'));
    await store.track();
    expect(store.lastSkipped).toEqual([]);
    await store.close();
  });

  it('plain folder: default ignores (node_modules/, dist/ …) apply and can be changed', async () => {
    const { wt, data } = setup('plain');
    put(wt, { 'src/a.ts': 'a', 'node_modules/p/i.js': 'n', 'dist/o.js': 'd', '.venv/x': 'v' });
    const s1 = await SnapshotStore.open({ worktree: wt, dataDir: data });
    expect((await s1.listFiles(await s1.track())).map((f) => f.path)).toEqual(['src/a.ts']);
    await s1.close();
    const s2 = await SnapshotStore.open({ worktree: wt, dataDir: join(data, 'other'), ignoreDefaults: ['dist/'] });
    expect((await s2.listFiles(await s2.track())).map((f) => f.path)).toEqual([
      '.venv/x',
      'node_modules/p/i.js',
      'src/a.ts',
    ]);
    await s2.close();
  });

  it('sees an edit that keeps the size, and stays equal to the oracle across edits', async () => {
    const { wt, data } = setup('edit');
    put(wt, { 'a.txt': 'aaaa', 'd/b.txt': 'bbbb' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    writeFileSync(join(wt, 'a.txt'), 'AAAA');
    const t2 = await store.track();
    expect(t2).not.toBe(t1);
    expect(t2).toBe(oracleTreeId(wt));
    await store.close();
    const again = await SnapshotStore.open({ worktree: wt, dataDir: data });
    expect(await again.track()).toBe(t2);
    await again.close();
  });
});

describe('patch, diff, diffFull', () => {
  it('lists changed files, renders unified text, and gives per-file before/after and counts', async () => {
    const { wt, data } = setup('diff');
    put(wt, { 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n', 'bin.dat': 'x' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    writeFileSync(join(wt, 'a.txt'), 'one\nTWO\nthree\n');
    rmSync(join(wt, 'gone.txt'));
    writeFileSync(join(wt, 'new.txt'), 'hi\n');
    writeFileSync(join(wt, 'bin.dat'), Buffer.from([0, 1, 2]));
    expect(await store.patch(t1)).toEqual({ hash: t1, files: ['a.txt', 'bin.dat', 'gone.txt', 'new.txt'] });
    const text = await store.diff(t1);
    expect(text).toContain(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n+three\n',
    );
    expect(text).toContain(
      'diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n',
    );
    expect(text).toContain('Binary files a/bin.dat and b/bin.dat differ');
    const t2 = await store.track();
    expect(await store.diffFull(t1, t2)).toEqual([
      {
        path: 'a.txt',
        status: 'modified',
        before: 'one\ntwo\n',
        after: 'one\nTWO\nthree\n',
        additions: 2,
        deletions: 1,
      },
      { path: 'bin.dat', status: 'modified', binary: true, additions: 0, deletions: 0 },
      { path: 'gone.txt', status: 'deleted', before: 'bye\n', additions: 0, deletions: 1 },
      { path: 'new.txt', status: 'added', after: 'hi\n', additions: 1, deletions: 0 },
    ]);
    expect(await store.diffFull(t2, t2)).toEqual([]);
    expect(await store.diff(t2)).toBe('');
    await store.close();
  });

  it('refuses an unknown hash with not_found and a malformed one with invalid_input', async () => {
    const { wt, data } = setup('bad');
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    await expect(store.patch('0'.repeat(40))).rejects.toSatisfy((e) => isFailure(e, 'not_found'));
    await expect(store.restore('nope')).rejects.toSatisfy((e) => isFailure(e, 'invalid_input'));
    await store.close();
    await expect(store.track()).rejects.toSatisfy((e) => isFailure(e, 'unavailable'));
  });
});

describe('restore and revert', () => {
  it('restore brings back bytes, exec bits and links, deletes newer files, removes emptied folders, keeps ignored files', async () => {
    const { wt, data } = setup('restore');
    put(wt, { 'a.txt': 'a', 'run.sh': '#!', '.gitignore': '*.log\n' });
    chmodSync(join(wt, 'run.sh'), 0o755);
    symlinkSync('a.txt', join(wt, 'ln'));
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    const s1 = readState(wt);
    writeFileSync(join(wt, 'a.txt'), 'changed');
    chmodSync(join(wt, 'run.sh'), 0o644);
    rmSync(join(wt, 'ln'));
    writeFileSync(join(wt, 'ln'), 'now a file');
    put(wt, { 'new/deep/n.txt': 'n', 'keep.log': 'ignored' });
    const objectsBefore = hashFolder(join(store.gitdir, 'objects'));
    const report = await store.restore(t1);
    // The work tree's state before the restore is compared in memory, never stored (nobody holds its hash).
    expect(hashFolder(join(store.gitdir, 'objects'))).toEqual(objectsBefore);
    expect(report.failed).toEqual([]);
    expect(report.deleted).toEqual(['new/deep/n.txt']);
    expect(report.restored.sort()).toEqual(['a.txt', 'ln', 'run.sh']);
    expect(readState(wt, (p) => p === 'keep.log')).toEqual(s1);
    expect(readFileSync(join(wt, 'keep.log'), 'utf8')).toBe('ignored');
    expect(existsSync(join(wt, 'new'))).toBe(false);
    expect(lstatSync(join(wt, 'ln')).isSymbolicLink()).toBe(true);
    expect(await store.track()).toBe(t1);
    await store.close();
  });

  it('revert: earliest patch per file wins, absent files are deleted, a failing file does not stop the others', async () => {
    const { wt, data, base } = setup('revert');
    put(wt, { 'a.txt': 'a1', 'b.txt': 'b1' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    put(wt, { 'a.txt': 'a2', 'c.txt': 'c2' });
    const t2 = await store.track();
    put(wt, { 'a.txt': 'a3', 'b.txt': 'b3', 'c.txt': 'c3', 'blocked/x.txt': 'x3' });
    const t3 = await store.track();
    rmSync(join(wt, 'blocked'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    symlinkSync(join(base, 'outside'), join(wt, 'blocked'));
    const report = await store.revert([
      { hash: t2, files: ['c.txt', 'a.txt'] },
      { hash: t1, files: ['a.txt', 'b.txt', 'c.txt', join(wt, 'blocked/x.txt')] },
      { hash: t3, files: ['../escape.txt'] },
    ]);
    expect(readFileSync(join(wt, 'a.txt'), 'utf8')).toBe('a2');
    expect(readFileSync(join(wt, 'b.txt'), 'utf8')).toBe('b1');
    expect(readFileSync(join(wt, 'c.txt'), 'utf8')).toBe('c2');
    expect(report.restored.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(report.deleted).toEqual([]);
    // blocked/x.txt is absent from t1, but its folder is now a link out of the tree: nothing is deleted through it.
    expect(report.failed.map((f) => f.path)).toEqual(['../escape.txt', 'blocked/x.txt']);
    const r2 = await store.revert([{ hash: t3, files: ['blocked/x.txt'] }]);
    expect(r2.failed).toEqual([
      {
        path: 'blocked/x.txt',
        reason: 'not written: parent blocked is a symlink (restore never writes through links)',
      },
    ]);
    expect(readdirSync(join(base, 'outside'))).toEqual([]);
    const r3 = await store.revert([{ hash: t1, files: ['c.txt'] }]);
    expect(r3).toEqual({ restored: [], deleted: ['c.txt'], failed: [], kept: [] });
    await store.close();
  });
});

describe('gc', () => {
  it('keeps everything reachable from kept trees (and the last track), removes the rest past the retention', async () => {
    const { wt, data } = setup('gc');
    put(wt, { 'a.txt': 'v1', 'd/b.txt': 'b' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    put(wt, { 'a.txt': 'v2' });
    const t2 = await store.track();
    put(wt, { 'a.txt': 'v3' });
    const t3 = await store.track();
    expect((await store.gc({ keep: [t1], olderThanMs: 60_000 })).removedObjects).toBe(0);
    const r = await store.gc({ keep: [t1], olderThanMs: 0 });
    expect(r.removedObjects).toBe(2); // t2's root tree and its a.txt blob
    await expect(store.listFiles(t2)).rejects.toSatisfy((e) => isFailure(e, 'not_found'));
    expect(Buffer.from((await store.readFile(t1, 'a.txt')) ?? []).toString()).toBe('v1');
    expect(Buffer.from((await store.readFile(t3, 'a.txt')) ?? []).toString()).toBe('v3');
    expect(await store.track()).toBe(t3);
    await store.restore(t1);
    expect(readFileSync(join(wt, 'a.txt'), 'utf8')).toBe('v1');
    // t1 came from the first track, so it lives in a pack: dropping it rewrites the pack without its objects.
    put(wt, { 'a.txt': 'v3' });
    const packsBefore = readdirSync(join(store.gitdir, 'objects', 'pack'));
    const r2 = await store.gc({ keep: [t3], olderThanMs: 0 });
    expect(r2.removedObjects).toBe(2); // t1's root tree and its a.txt blob
    expect(readdirSync(join(store.gitdir, 'objects', 'pack'))).not.toEqual(packsBefore);
    await expect(store.listFiles(t1)).rejects.toSatisfy((e) => isFailure(e, 'not_found'));
    expect(Buffer.from((await store.readFile(t3, 'd/b.txt')) ?? []).toString()).toBe('b');
    rmSync(join(wt, 'd'), { recursive: true });
    expect((await store.restore(t3)).restored).toEqual(['d/b.txt']);
    await store.close();
  });
});

describe('locking and worker', () => {
  it('serialises concurrent calls and two stores on the same folder', async () => {
    const { wt, data } = setup('lock');
    put(wt, { 'a.txt': 'a' });
    const s1 = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const s2 = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const ids = await Promise.all([s1.track(), s2.track(), s1.track(), s2.track()]);
    expect(new Set(ids).size).toBe(1);
    expect(existsSync(join(s1.gitdir, 'landfall.lock'))).toBe(false);
    await s1.close();
    await s2.close();
  });

  it('runs the same API in a worker thread', async () => {
    const { wt, data } = setup('worker');
    put(wt, { 'a.txt': 'a' });
    const w = await openInWorker({ worktree: wt, dataDir: data });
    const t1 = await w.track();
    expect(t1).toBe(oracleTreeId(wt));
    writeFileSync(join(wt, 'a.txt'), 'b');
    expect(await w.patch(t1)).toEqual({ hash: t1, files: ['a.txt'] });
    expect(await w.restore(t1)).toEqual({ restored: ['a.txt'], deleted: [], failed: [], kept: [] });
    expect(readFileSync(join(wt, 'a.txt'), 'utf8')).toBe('a');
    await expect(w.patch('1'.repeat(40))).rejects.toSatisfy((e) => isFailure(e, 'not_found'));
    await w.close();
    await expect(openInWorker({ worktree: join(wt, 'missing'), dataDir: data })).rejects.toSatisfy((e) =>
      isFailure(e, 'file_not_found'),
    );
  });
});
