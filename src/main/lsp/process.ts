/**
 * A language-server child process: spawned detached in its own process group, so stopping it reaches the
 * grandchildren too (tsserver under typescript-language-server, shellcheck under bash-language-server).
 * Stopping escalates SIGTERM → SIGKILL on the whole group (negative pid); `signalGroup(pid, "SIGKILL")` is the last-resort
 * path used from a synchronous process 'exit' hook.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childEnv } from '../proc/child-env';
import type { ResolvedCommand } from './discover';
import { processesInGroups } from './proc-table';

/** How a server process ended: exit code or signal. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running server process, its exit promise, and the tail of its stderr (for the error text). */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  exited: Promise<ProcessExit>;
  hasExited(): boolean;
  stderrTail(): string;
}

const STDERR_TAIL = 2_000;

/** Spawn `cmd` in `cwd`, detached into its own process group, stdio piped. Throws only if spawn itself throws. */
export function spawnServer(cmd: ResolvedCommand, cwd: string): ServerProcess {
  const child = spawn(cmd.command, cmd.args, {
    cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childEnv(cmd.env),
  });
  let tail = '';
  let done = false;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL);
  });
  // A dead server makes writes fail with EPIPE; the exit handler reports it, the error must not crash Landfall.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    child.once('error', () => {
      done = true;
      resolve({ code: null, signal: null });
    });
  });
  return { child, pid: child.pid ?? -1, exited, hasExited: () => done, stderrTail: () => tail.trim() };
}

/** Signal the process group (falls back to the single process when the group is gone). Never throws. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Wait up to `ms` for the process to exit; true when it did. */
export async function exitWithin(proc: ServerProcess, ms: number): Promise<boolean> {
  if (proc.hasExited()) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([proc.exited.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}

/** SIGTERM the group, wait `graceMs`, then SIGKILL the group (kills leftovers even after the leader exited). */
export async function terminateGroup(proc: ServerProcess, graceMs: number): Promise<void> {
  signalGroup(proc.pid, 'SIGTERM');
  await exitWithin(proc, graceMs);
  signalGroup(proc.pid, 'SIGKILL');
  await exitWithin(proc, graceMs);
}

/**
 * SIGKILL whatever is left of the group and wait (up to `ms`) until the process table shows none of it alive:
 * a signalled process lingers for a moment, and grandchildren (tsserver) may outlive the leader.
 */
export async function sweepGroup(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = processesInGroups([pid]);
    if (left.length === 0 || Date.now() > deadline) return;
    for (const p of left) signalGroup(p.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 20));
  }
}
