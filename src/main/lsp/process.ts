/**
 * A language-server child process (also an MCP stdio server's): spawned detached in its own process group, so
 * stopping it reaches the grandchildren too (tsserver under typescript-language-server, shellcheck under
 * bash-language-server), and in its own PID namespace where the system allows it (proc/pid-namespace.ts): a
 * server — code from the project or from npm — sees no other process in /proc, so it cannot read Landfall's or
 * anyone's start-up environment, and what it leaves running ends with it.
 * Stopping escalates SIGTERM → SIGKILL on the whole group (negative pid); `signalGroup(pid, "SIGKILL")` is the last-resort
 * path used from a synchronous process 'exit' hook.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { childEnv } from '../proc/child-env';
import { spawnIsolated } from '../proc/pid-namespace';
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
  /** The leader's pid (with isolation that is `unshare`, whose group and session the server shares). */
  pid: number;
  /** True when the server runs in its own PID namespace (then Landfall's pid means nothing to it). */
  isolated: boolean;
  exited: Promise<ProcessExit>;
  /** Resolves once the process exited and its output streams closed (all its stderr read), or it failed to spawn. */
  closed: Promise<void>;
  hasExited(): boolean;
  stderrTail(): string;
}

const STDERR_TAIL = 2_000;

/**
 * Spawn `cmd` in `cwd`, detached into its own process group (and PID namespace where allowed), stdio piped, with
 * the scrubbed environment plus `cmd.env`. Throws only if spawn itself throws.
 */
export function spawnServer(cmd: ResolvedCommand, cwd: string): ServerProcess {
  const spawned = spawnIsolated(cmd.command, cmd.args, {
    cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childEnv(cmd.env),
  });
  const child = spawned.child as ChildProcessWithoutNullStreams;
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
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  return {
    child,
    pid: child.pid ?? -1,
    isolated: spawned.isolated,
    exited,
    closed,
    hasExited: () => done,
    stderrTail: () => tail.trim(),
  };
}

/**
 * Signals process group `pid` (the server was spawned detached: it leads a group of that id). Never throws. When
 * the group is gone, nothing is signalled: the kernel keeps an id in use while a process or a group holds it, so a
 * negative pid can only reach this server's own leftovers — whereas the bare pid, once the leader has exited and
 * been reaped, may already name an unrelated process (ids are handed out in turn and wrap at pid_max — 32,768 on
 * many Linux systems, reached by a busy machine's process churn), and signalling it would kill someone else's program.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone: no process of this server is left
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
    signalGroup(pid, 'SIGKILL'); // every process listed is in group `pid`
    await new Promise((r) => setTimeout(r, 20));
  }
}
