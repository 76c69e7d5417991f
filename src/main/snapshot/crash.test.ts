/**
 * Crash safety and the user's git data (fixtures/bugs/README.md B33): a SIGKILL during a track leaves a store that opens and tracks
 * correctly, and no `.git` anywhere in the work tree (root, nested repositories) is renamed, written or created.
 */
import { spawn } from 'node:child_process';
import { childArgs } from '../proc/test-child';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as git from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { cleanup, hashFolder, oracleTreeId, readState, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

const author = { name: 't', email: 't@t', timestamp: 1_700_000_000, timezoneOffset: 0 };

async function repoWithCommit(dir: string, files: Record<string, string>): Promise<void> {
  await git.init({ fs, dir });
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
    await git.add({ fs, dir, filepath: p });
  }
  await git.commit({ fs, dir, message: 'init', author });
}

/** Every entry whose name starts with `.git`, as a sorted list of paths (like `find . -name '.git*' -prune`). */
function gitEntries(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true })) {
    const p = rel === '' ? d.name : `${rel}/${d.name}`;
    if (d.name.startsWith('.git')) out.push(p);
    else if (d.isDirectory()) out.push(...gitEntries(root, p));
  }
  return out.sort();
}

/** Starts the crash child and SIGKILLs it `afterMs` after its `nth` "tracking" line. */
async function killDuringTrack(worktree: string, dataDir: string, nth: number, afterMs: number): Promise<void> {
  const script = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
  const child = spawn(process.execPath, await childArgs(script, [worktree, dataDir]), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = 0;
    child.stdout.on('data', (b: Buffer) => {
      seen += b.toString().split('tracking').length - 1;
      if (seen >= nth) setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended without SIGKILL (${signal})`)),
    );
  });
}

describe('crash during track (SIGKILL)', () => {
  it('B33: kill during the first snapshot of a repo with nested repos; .git entries unchanged; reopen tracks correctly', async () => {
    const base = tempDir('b33');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt);
    await repoWithCommit(wt, { 'README.md': 'root\n', '.gitignore': 'node_modules/\n' });
    await repoWithCommit(join(wt, 'packages/lib'), { 'lib.ts': 'export {};\n' });
    await repoWithCommit(join(wt, 'node_modules/pkg'), { 'index.js': 'module.exports = 1;\n' });
    // Incompressible, unrelated files (~24 MB): the first track takes far longer than the 150 ms before the kill,
    // so the kill lands inside it (similar or repetitive files would be deltas and done in a blink).
    for (let i = 0; i < 1500; i++) {
      mkdirSync(join(wt, 'src', `m${i % 30}`), { recursive: true });
      writeFileSync(
        join(wt, 'src', `m${i % 30}`, `f${i}.ts`),
        `export const v${i} = '${randomBytes(8000).toString('hex')}';\n`,
      );
    }
    const listing = gitEntries(wt);
    const gitBytes = [
      hashFolder(join(wt, '.git')),
      hashFolder(join(wt, 'packages/lib/.git')),
      hashFolder(join(wt, 'node_modules/pkg/.git')),
    ];
    const data = join(base, 'data');
    await killDuringTrack(wt, data, 1, 150);
    expect(lockFiles(data)).toHaveLength(1); // killed while holding the store: mid-operation
    await killDuringTrack(wt, data, 2, 5);
    expect(gitEntries(wt)).toEqual(listing);
    expect([
      hashFolder(join(wt, '.git')),
      hashFolder(join(wt, 'packages/lib/.git')),
      hashFolder(join(wt, 'node_modules/pkg/.git')),
    ]).toEqual(gitBytes);

    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t1 = await store.track();
    const files = (await store.listFiles(t1)).map((f) => f.path);
    expect(files).toContain('packages/lib/lib.ts');
    expect(files.some((f) => f.startsWith('node_modules/'))).toBe(false);
    expect(files.some((f) => f.split('/').includes('.git'))).toBe(false);
    const expected = readState(wt, (p) => p === 'node_modules');
    writeFileSync(join(wt, 'src/m1/f1.ts'), 'changed');
    writeFileSync(join(wt, 'counter.txt'), 'changed');
    const report = await store.restore(t1);
    expect(report.failed).toEqual([]);
    expect(readState(wt, (p) => p === 'node_modules')).toEqual(expected);
    for (const f of files.slice(0, 50))
      expect(Buffer.from((await store.readFile(t1, f)) ?? [])).toEqual(readFileSync(join(wt, f)));
    expect(gitEntries(wt)).toEqual(listing);
    expect(hashFolder(join(wt, '.git'))).toEqual(gitBytes[0]);
    await store.close();
    // A store opened after the crashes agrees with an independent computation of the tree id.
    rmNodeModulesView(wt);
    const again = await SnapshotStore.open({ worktree: wt, dataDir: data, ignoreDefaults: [] });
    expect(await again.track()).toBe(oracleTreeId(wt));
    await again.close();
  }, 120_000);
});

describe('two processes on one store', () => {
  it('interleave safely: every tree either process returns is complete and readable', async () => {
    const base = tempDir('procs');
    dirs.push(base);
    const wt = join(base, 'wt');
    for (let i = 0; i < 400; i++) {
      mkdirSync(join(wt, `d${i % 9}`), { recursive: true });
      writeFileSync(join(wt, `d${i % 9}`, `f${i}.txt`), `${i}\n`.repeat(100));
    }
    const data = join(base, 'data');
    const store = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const child = killDuringTrack(wt, data, 3, 1500);
    const seen: string[] = [];
    for (let i = 0; i < 15; i++) {
      writeFileSync(join(wt, 'd0', 'parent.txt'), `${i}`);
      const t = await store.track();
      seen.push(t);
      expect((await store.listFiles(t)).length).toBeGreaterThanOrEqual(401);
    }
    await child;
    for (const t of seen)
      expect(Buffer.from((await store.readFile(t, 'd1/f1.txt')) ?? []).toString()).toBe('1\n'.repeat(100));
    await store.close();
    const again = await SnapshotStore.open({ worktree: wt, dataDir: data, ignoreDefaults: [] });
    expect(await again.track()).toBe(oracleTreeId(wt));
    await again.close();
  }, 60_000);
});

/** Lock files left under the data folder. */
function lockFiles(data: string): string[] {
  const root = join(data, 'snapshot', 'default');
  return readdirSync(root).filter((k) => readdirSync(join(root, k)).includes('landfall.lock'));
}

/** Removes the ignore rule so the oracle (which knows no ignore rules) and the store see the same files. */
function rmNodeModulesView(wt: string): void {
  writeFileSync(join(wt, '.gitignore'), '');
}
