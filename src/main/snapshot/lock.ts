/**
 * One operation at a time per store: an in-process promise chain (cheap, ordered) plus a lock file shared with
 * other processes. The lock file is created with O_EXCL and holds `pid host time`; a lock whose process is gone
 * (same host, `kill(pid, 0)` fails with ESRCH) or that is older than STALE_MS is taken over, so a SIGKILL during a
 * track does not wedge the store. Waiting longer than `waitMs` gives LandfallFailure `busy`.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { LandfallFailure } from '../../shared/errors';

const STALE_MS = 10 * 60 * 1000;

function holderGone(file: string): boolean {
  try {
    const [pid, host] = readFileSync(file, 'utf8').split(' ');
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) return true;
    if (host !== hostname()) return false;
    const n = Number(pid);
    if (!Number.isInteger(n) || n <= 0) return true;
    try {
      process.kill(n, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false; // vanished or being written: just try again
  }
}

function tryCreate(file: string): boolean {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, `${process.pid} ${hostname()} ${Date.now()}`);
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  }
}

/** The store's operation lock. */
export class StoreLock {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string, private readonly waitMs = 30_000) {}

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
        // Move the dead holder's lock aside atomically so two waiters cannot both remove a fresh lock.
        const aside = `${this.file}.stale-${process.pid}`;
        try {
          renameSync(this.file, aside);
          // Another waiter may have replaced the dead lock with a live one between our check and the rename.
          if (holderGone(aside)) unlinkSync(aside);
          else renameSync(aside, this.file);
        } catch {
          // someone else took it over first
        }
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
