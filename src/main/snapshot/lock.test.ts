/**
 * The store's lock file (lock.ts): taken by hard-linking a private file kept for the lock's life, its age fresh at
 * every take (a waiter treats a lock older than 10 minutes as stale), private files of processes gone removed, and
 * nothing left once the store is closed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreLock } from './lock';
import { cleanup, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('StoreLock', () => {
  it('links a private file into place with a fresh mtime, and removes it on dispose', async () => {
    const dir = tempDir('lock');
    made.push(dir);
    const file = join(dir, 'landfall.lock');
    const lock = new StoreLock(file);
    let inside = 0;
    await lock.run(() => {
      inside = statSync(file).nlink;
    });
    expect(inside).toBe(2); // the lock and this process's private file are one file
    expect(existsSync(file)).toBe(false);
    const kept = readdirSync(dir).filter((n) => n.startsWith('landfall.lock.'));
    expect(kept).toHaveLength(1);
    // An hour-old private file: the lock it becomes must not look stale to another process.
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(dir, kept[0] as string), old, old);
    let age = Infinity;
    await lock.run(() => {
      age = Date.now() - statSync(file).mtimeMs;
    });
    expect(age).toBeLessThan(60_000);
    lock.dispose();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the private files of processes gone, and keeps those of live ones', async () => {
    const dir = tempDir('lockorphan');
    made.push(dir);
    const file = join(dir, 'landfall.lock');
    const gone = `landfall.lock.${deadPid()}.0badf00d`;
    const live = `landfall.lock.${process.ppid}.0000beef`;
    writeFileSync(join(dir, gone), `${Number(gone.split('.')[2])} ${hostname()} 1`);
    writeFileSync(join(dir, live), `${process.ppid} ${hostname()} 1`);
    const lock = new StoreLock(file);
    await lock.run(() => undefined);
    const names = readdirSync(dir);
    expect(names).not.toContain(gone);
    expect(names).toContain(live);
    lock.dispose();
    expect(readdirSync(dir)).toEqual([live]);
  });

  it('makes a new private file when someone removed it', async () => {
    const dir = tempDir('lockgone');
    made.push(dir);
    const file = join(dir, 'landfall.lock');
    const lock = new StoreLock(file);
    await lock.run(() => undefined);
    for (const n of readdirSync(dir)) cleanup(join(dir, n));
    let held = false;
    await lock.run(() => {
      held = existsSync(file);
    });
    expect(held).toBe(true);
    lock.dispose();
    expect(readdirSync(dir)).toEqual([]);
  });
});
