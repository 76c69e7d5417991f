/**
 * One operation at a time per store: an in-process promise chain (cheap, ordered) plus a lock file shared with
 * other processes. The lock file appears atomically with its content `pid host time` (written to a private
 * temporary file, then hard-linked into place, which fails if a lock exists), so no one ever reads a half-written
 * lock. A lock whose process is gone (same host, `kill(pid, 0)` fails with ESRCH) or that is older than STALE_MS
 * is removed — under a second, directory-based guard, so two waiters never both remove a lock and one of them
 * a fresh one — so a SIGKILL during a track does not wedge the store. Waiting longer than `waitMs` gives
 * LandfallFailure `busy`.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LandfallFailure } from '../../shared/errors';

const STALE_MS = 10 * 60 * 1000;
const GUARD_STALE_MS = 10_000;

function ageMs(file: string): number {
  return Date.now() - statSync(file).mtimeMs;
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
    if (host !== hostname()) return false;
    try {
      process.kill(n, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false; // vanished: just try again
  }
}

/** Creates the lock with its content in one step; false when a lock exists. */
function tryCreate(file: string): boolean {
  const content = `${process.pid} ${hostname()} ${Date.now()}`;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, content);
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    return createExclusive(file, content); // file systems without hard links
  } finally {
    unlinkSync(tmp);
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

  private async acquire(): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
      if (tryCreate(this.file)) return;
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
  }
}
