/**
 * Git projects: the user's `.git` is byte-identical after a full cycle (track, patch, diff, diffFull, restore,
 * revert, gc); a file the user's index tracks is snapshotted even when ignored; nested repositories are plain
 * files and their `.git` is never stored or written; the bug reproductions fixtures/bugs/README.md B34, B35, B38 as tests.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { cleanup, hashFolder, readState, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

const author = { name: 't', email: 't@t', timestamp: 1_700_000_000, timezoneOffset: 0 };

function put(root: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
}

async function repo(dir: string, files: Record<string, string>, gitdir?: string): Promise<void> {
  put(dir, files);
  await git.init({ fs, dir, ...(gitdir ? { gitdir } : {}) });
  for (const p of Object.keys(files)) await git.add({ fs, dir, filepath: p, ...(gitdir ? { gitdir } : {}) });
  await git.commit({ fs, dir, message: 'init', author, ...(gitdir ? { gitdir } : {}) });
}

function setup(tag: string): { base: string; wt: string; data: string } {
  const base = tempDir(tag);
  dirs.push(base);
  const wt = join(base, 'wt');
  mkdirSync(wt);
  return { base, wt, data: join(base, 'data') };
}

describe('git project', () => {
  it("leaves every byte of the user's .git as it was after a full cycle; honours info/exclude; keeps index-tracked ignored files", async () => {
    const { wt, data } = setup('gitproj');
    await repo(wt, { 'src/a.ts': 'a\n', 'config/local.env': 'SECRET=1\n', 'README.md': 'r\n' });
    put(wt, {
      '.gitignore': 'config/\n*.log\n',
      'config/other.env': 'untracked and ignored',
      'x.log': 'log',
      'notes.local': 'excluded',
    });
    writeFileSync(join(wt, '.git', 'info', 'exclude'), '*.local\n');
    const before = hashFolder(join(wt, '.git'));
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    expect((await store.listFiles(t1)).map((f) => f.path)).toEqual([
      '.gitignore',
      'README.md',
      'config/local.env',
      'src/a.ts',
    ]);
    put(wt, { 'src/a.ts': 'b\n', 'src/new.ts': 'n\n' });
    const p = await store.patch(t1);
    expect(p.files).toEqual(['src/a.ts', 'src/new.ts']);
    expect(await store.diff(t1)).toContain('+b');
    const t2 = await store.track();
    expect((await store.diffFull(t1, t2)).map((d) => d.status)).toEqual(['modified', 'added']);
    await store.revert([p]);
    expect(readFileSync(join(wt, 'src/a.ts'), 'utf8')).toBe('a\n');
    await store.restore(t2);
    await store.restore(t1);
    await store.gc({ keep: [t1], olderThanMs: 0 });
    await store.close();
    expect(hashFolder(join(wt, '.git'))).toEqual(before);
    expect(readFileSync(join(wt, 'x.log'), 'utf8')).toBe('log');
  });

  it('snapshots a nested repository as plain files and never its .git', async () => {
    const { wt, data } = setup('nested');
    put(wt, { 'top.txt': 't' });
    await repo(join(wt, 'inner'), { 'in.txt': 'i1' });
    const innerGit = hashFolder(join(wt, 'inner/.git'));
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    expect((await store.listFiles(t1)).map((f) => f.path)).toEqual(['inner/in.txt', 'top.txt']);
    writeFileSync(join(wt, 'inner/in.txt'), 'i2');
    rmSync(join(wt, 'top.txt'));
    const r = await store.restore(t1);
    expect(r).toEqual({ restored: ['inner/in.txt', 'top.txt'], deleted: [], failed: [], kept: [] });
    expect(readFileSync(join(wt, 'inner/in.txt'), 'utf8')).toBe('i1');
    rmSync(join(wt, 'inner/in.txt'));
    await store.track();
    await store.restore(t1);
    expect(hashFolder(join(wt, 'inner/.git'))).toEqual(innerGit);
    await store.close();
  });
});

describe('bug reproductions', () => {
  it('B34: ignored node_modules is never walked or stored; a one-line edit grows the store by little', async () => {
    const { wt, data } = setup('b34');
    await repo(wt, { '.gitignore': 'node_modules/\n' });
    for (let i = 0; i < 20; i++) put(wt, { [`src/f${i}.ts`]: `export const v = ${i};\n` });
    for (let d = 0; d < 40; d++) for (let f = 0; f < 25; f++) put(wt, { [`node_modules/p${d}/f${f}.js`]: 'x\n' });
    execFileSync('mkfifo', [join(wt, 'node_modules/p0/pipe')]); // the walk would report it as special if it went in
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    expect(store.lastSkipped).toEqual([]);
    expect((await store.listFiles(t1)).some((f) => f.path.startsWith('node_modules'))).toBe(false);
    const size = (): number => du(store.gitdir);
    const s1 = size();
    writeFileSync(join(wt, 'src/f3.ts'), 'export const v = 33;\n');
    const t2 = await store.track();
    expect((await store.patch(t1)).files).toEqual(['src/f3.ts']);
    expect(t2).not.toBe(t1);
    expect(size() - s1).toBeLessThan(1024 * 1024);
    await store.close();
  });

  it('B34 extra: a large binary the user index tracks is stored once, not once per snapshot', async () => {
    const { wt, data } = setup('b34bin');
    await repo(wt, { 'big.bin': 'placeholder' });
    writeFileSync(join(wt, 'big.bin'), Buffer.alloc(5 * 1024 * 1024, 1));
    await git.add({ fs, dir: wt, filepath: 'big.bin' });
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    await store.track();
    expect(store.lastSkipped).toEqual([]);
    const s1 = du(store.gitdir);
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(wt, 'small.txt'), `${i}`);
      await store.track();
    }
    expect(du(store.gitdir) - s1).toBeLessThan(256 * 1024);
    await store.close();
  });

  it('B35: submodule .git file and a symlink to a repo outside: checkpoints work, nothing written through the link', async () => {
    const { base, wt, data } = setup('b35');
    await repo(wt, { 'src/main.c': 'int main;\n' });
    await repo(join(wt, 'vendor/lib'), { 'lib.c': 'int lib;\n' }, join(wt, '.git/modules/vendor/lib'));
    writeFileSync(join(wt, 'vendor/lib/.git'), 'gitdir: ../../.git/modules/vendor/lib\n');
    const outside = join(base, 'outside-repo');
    await repo(outside, { 'o.txt': 'outside\n' });
    symlinkSync(outside, join(wt, 'ext'));
    const moduleGit = hashFolder(join(wt, '.git/modules/vendor/lib'));
    const outsideBytes = hashFolder(outside);
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    expect(await store.listFiles(t1)).toEqual([
      { path: 'ext', mode: '120000', oid: expect.stringMatching(/^[0-9a-f]{40}$/) },
      { path: 'src/main.c', mode: '100644', oid: expect.any(String) },
      { path: 'vendor/lib/lib.c', mode: '100644', oid: expect.any(String) },
    ]);
    put(wt, { 'src/main.c': 'int main = 1;\n', 'vendor/lib/lib.c': 'int lib = 1;\n' });
    const p = await store.patch(t1);
    const r = await store.revert([p]);
    expect(r).toEqual({ restored: ['src/main.c', 'vendor/lib/lib.c'], deleted: [], failed: [], kept: [] });
    expect(readFileSync(join(wt, 'vendor/lib/lib.c'), 'utf8')).toBe('int lib;\n');
    expect(readFileSync(join(wt, 'vendor/lib/.git'), 'utf8')).toBe('gitdir: ../../.git/modules/vendor/lib\n');
    expect(hashFolder(join(wt, '.git/modules/vendor/lib'))).toEqual(moduleGit);
    expect(lstatSync(join(wt, 'ext')).isSymbolicLink()).toBe(true);
    // A tree that had a real folder `ext/` is restored by replacing the link, never by writing into its target.
    rmSync(join(wt, 'ext'));
    put(wt, { 'ext/o.txt': 'mine\n' });
    const t2 = await store.track();
    rmSync(join(wt, 'ext'), { recursive: true });
    symlinkSync(outside, join(wt, 'ext'));
    const r2 = await store.restore(t2);
    expect(r2.failed).toEqual([]);
    expect(lstatSync(join(wt, 'ext')).isDirectory()).toBe(true);
    expect(hashFolder(outside)).toEqual(outsideBytes);
    await store.close();
  });

  it('B38: a file deleted by a shell command comes back on revert; a rename is undone', async () => {
    const { wt, data } = setup('b38');
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t0 = await store.track();
    writeFileSync(join(wt, 'tmp.txt'), 'keep me\n');
    const t1 = await store.track();
    const step1 = await store.patch(t0);
    rmSync(join(wt, 'tmp.txt'));
    const step2 = await store.patch(t1);
    expect(step2.files).toEqual(['tmp.txt']);
    expect(await store.revert([step2])).toEqual({ restored: ['tmp.txt'], deleted: [], failed: [], kept: [] });
    expect(readFileSync(join(wt, 'tmp.txt'), 'utf8')).toBe('keep me\n');
    expect(await store.revert([step1])).toEqual({ restored: [], deleted: ['tmp.txt'], failed: [], kept: [] });
    writeFileSync(join(wt, 'a.txt'), 'A\n');
    const t2 = await store.track();
    renameSync(join(wt, 'a.txt'), join(wt, 'b.txt'));
    const step3 = await store.patch(t2);
    expect(step3.files).toEqual(['a.txt', 'b.txt']);
    await store.revert([step3]);
    expect(readState(wt)).toEqual({ 'a.txt': `f:-:${Buffer.from('A\n').toString('base64')}` });
    expect(existsSync(join(wt, 'b.txt'))).toBe(false);
    await store.close();
  });
});

function du(p: string): number {
  const st = lstatSync(p);
  let total = st.size;
  if (st.isDirectory()) for (const n of readdirSync(p)) total += du(join(p, n));
  return total;
}
