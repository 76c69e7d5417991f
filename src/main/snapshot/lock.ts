/**
 * One operation at a time per store: an in-process promise chain (cheap, ordered) plus a lock file shared with
 * other processes. The lock file appears atomically with its content `pid host time`: a private file of this
 * process holding that content (made once, kept while the lock object lives) is hard-linked into place, which fails
 * if a lock exists — so no one ever reads a half-written lock, and taking the lock costs two system calls (the
 * private file's mtime set to now, then the link; the lock's age is its mtime, shared by both names). A lock whose
 * process is gone (same host, `kill(pid, 0)` fails with ESRCH) or that is older than STALE_MS is removed — under a
 * second, directory-based guard, so two waiters never both remove a lock and one of them a fresh one — so a SIGKILL
 * during a track does not wedge the store; the private files of processes gone are removed too. Waiting longer
 * than `waitMs` gives LandfallFailure `busy`.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { LandfallFailure } from '../../shared/errors';

const STALE_MS = 10 * 60 * 1000;
const GUARD_STALE_MS = 10_000;

function ageMs(file: string): number {
  return Date.now() - statSync(file).mtimeMs;
}

/** True when process `pid` of host `host` is gone (this host only: another host's processes cannot be asked). */
function processGone(pid: number, host: string | undefined): boolean {
  if (host !== hostname()) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** True when the lock at `file` belongs to a process that no longer exists (or is very old). */
function holderGone(file: string): boolean {
  try {
    const [pid, host] = readFileSync(file, 'utf8').split(' ');
    const age = ageMs(file);
    if (age > STALE_MS) return true;
    const n = Number(pid);
    // Unreadable content can only come from a crash inside the no-link fallback below: trust it for a while.
    if (!Number.isInteger(n) || n <= 0) return age > GUARD_STALE_MS;
    return processGone(n, host);
  } catch {
    return false; // vanished: just try again
  }
}

/** Name prefix of the private files lock `file`'s holders link into place (`<file>.<pid>.<random>`). */
const keptPrefix = (file: string): string => `${basename(file)}.`;

/** Removes the private files of lock `file` left by processes gone (a crash leaves its file behind). */
function removeOrphans(file: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  const prefix = keptPrefix(file);
  for (const n of names) {
    if (!n.startsWith(prefix) || n.endsWith('.steal')) continue;
    const path = join(dirname(file), n);
    try {
      const [pid, host] = readFileSync(path, 'utf8').split(' ');
      const p = Number(pid);
      if (Number.isInteger(p) && p > 0 && p !== process.pid && processGone(p, host)) unlinkSync(path);
    } catch {
      // gone meanwhile, or not ours to judge
    }
  }
}

/**
 * Links this process's private file `kept` into place as lock `file`, its mtime set to now first; false when a
 * lock exists. A file system without hard links gets the lock written in place (`createExclusive`).
 */
function tryCreate(file: string, kept: string): boolean {
  const now = new Date();
  utimesSync(kept, now, now);
  try {
    linkSync(kept, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    return createExclusive(file, readFileSync(kept, 'utf8')); // file systems without hard links
  }
}

function createExclusive(file: string, content: string): boolean {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, content);
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  }
}

/** Removes the lock at `file` if its holder is gone, under the steal guard. */
function removeIfStale(file: string): void {
  const guard = `${file}.steal`;
  try {
    mkdirSync(guard);
  } catch {
    try {
      if (ageMs(guard) > GUARD_STALE_MS) rmdirSync(guard); // a waiter died while holding the guard
    } catch {
      // gone already
    }
    return;
  }
  try {
    if (holderGone(file)) unlinkSync(file);
  } catch {
    // removed by its holder meanwhile
  } finally {
    rmdirSync(guard);
  }
}

/** The store's operation lock. */
export class StoreLock {
  private chain: Promise<unknown> = Promise.resolve();
  /** This process's private file linked into place to take the lock (made on the first acquire). */
  private kept: string | undefined;
  private disposed = false;

  constructor(
    private readonly file: string,
    private readonly waitMs = 30_000,
  ) {}

  /**
   * Runs `fn` in this process's turn only, without the lock file: for an operation that writes nothing in the
   * store (it still never overlaps another operation of this process). Later calls wait their turn.
   */
  runLocal<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Runs `fn` while holding both locks; later calls wait their turn. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(async () => {
      await this.acquire();
      try {
        return await fn();
      } finally {
        this.release();
      }
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** The private file, made (and orphans of processes gone removed) on first use. */
  private keptFile(): string {
    if (this.kept) return this.kept;
    removeOrphans(this.file);
    const kept = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(kept, `${process.pid} ${hostname()} ${Date.now()}`);
    this.kept = kept;
    return kept;
  }

  private async acquire(): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
      let taken: boolean;
      try {
        taken = tryCreate(this.file, this.keptFile());
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        this.kept = undefined; // the private file was removed (someone cleaned the folder): make it again
        taken = tryCreate(this.file, this.keptFile());
      }
      if (taken) return;
      if (holderGone(this.file)) {
        removeIfStale(this.file);
        continue;
      }
      if (Date.now() > deadline) {
        throw new LandfallFailure({
          code: 'busy',
          message: `snapshot store is locked by another operation (${this.file})`,
          hint: 'wait for the other Landfall window or process to finish, then try again',
        });
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private release(): void {
    try {
      unlinkSync(this.file);
    } catch {
      // already removed (taken over as stale): nothing to release
    }
    if (this.disposed) this.dropKept();
  }

  /**
   * Removes the private file (the store's close, after its last `run`); an operation that still runs after this
   * removes the one it makes when it releases the lock.
   */
  dispose(): void {
    this.disposed = true;
    this.dropKept();
  }

  private dropKept(): void {
    const kept = this.kept;
    this.kept = undefined;
    try {
      if (kept) unlinkSync(kept);
    } catch {
      // removed by someone else already
    }
  }
}
