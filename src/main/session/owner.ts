/**
 * Which process runs turns on a database. Crash recovery (tool parts left `running` become `interrupted`) must
 * only happen when no other live process is running them — a command-line `landfall sessions list` opened while
 * the app runs a turn must not mark the app's running tool as interrupted. The owner file beside the database
 * holds the pid of the process that opened it; a dead pid (crash, SIGKILL) means recovery is due.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** True when a process with this pid exists (one of another user counts: EPERM). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid recorded in `file` when that process is still alive (and is not this one), else undefined. */
export function liveOwner(file: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
}

/** Record this process as the owner (when no live owner exists). Returns true when this process owns it now. */
export function claimOwner(file: string): boolean {
  if (liveOwner(file) !== undefined) return false;
  writeFileSync(file, `${process.pid}\n`);
  return true;
}

/** Remove the owner file if this process owns it. */
export function releaseOwner(file: string): void {
  try {
    if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
  } catch {
    // no owner file: nothing to release
  }
}
