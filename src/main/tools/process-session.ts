/**
 * Every process a bash command started, found and ended (the hostile review: `setsid` children survived stop and
 * timeout, and background children survived the command's normal end). The command runs as the leader of its own
 * session and process group (spawn `detached`), with a marker in its environment; a process belongs to the command
 * when, in /proc:
 *   - its session id or process group id is the leader's (everything started normally, `&` jobs, `nohup`), or
 *   - its environment carries the marker (a child that called setsid() left the session but kept the marker —
 *     also after its parent died and it was re-parented to init), or
 *   - an ancestor belongs to the command (a grandchild that called setsid() and cleared its environment, while
 *     its parent lives).
 * `endCommand` signals all of them, scans again (a process may fork while it is being killed) and repeats until
 * none is left or the rounds run out; with SIGKILL it waits until each is really gone (a zombie is gone).
 *
 * What remains: a process that leaves the session, clears its environment AND outlives every ancestor before a
 * scan cannot be told apart from any other process of the user without cgroups (not available to an unprivileged
 * desktop app on most systems). Where /proc does not exist (macOS) only the process group is signalled.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Name of the environment variable that marks a command's processes. */
export const RUN_MARKER = 'LANDFALL_BASH_RUN';

/** One process as /proc shows it (zombies excluded). */
interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
}

const HAVE_PROC = ((): boolean => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

function processes(): Proc[] {
  const out: Proc[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses: split after the last ')'.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z' || f[0] === 'X') continue;
      out.push({ pid: Number(name), ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]) });
    } catch {
      // ended while we looked
    }
  }
  return out;
}

function marked(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false; // another user's process, or gone
  }
}

/** Pids of the live processes that belong to the command led by `leader` whose marker value is `run`. */
export function commandProcesses(leader: number, run: string): number[] {
  if (!HAVE_PROC) return [];
  const marker = Buffer.from(`${RUN_MARKER}=${run}\0`);
  const all = processes().filter((p) => p.pid !== process.pid);
  const mine = new Set<number>();
  for (const p of all)
    if (p.sid === leader || p.pgid === leader || p.pid === leader || marked(p.pid, marker.toString())) mine.add(p.pid);
  // Descendants of what was found (re-scanned until nothing new: a chain may be listed in any order).
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return [...mine];
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // gone already
    }
  }
}

const ROUNDS = 20;

/**
 * Send `sig` to every process of the command (see the module docstring), rescanning until none is found that
 * has not been signalled, at most 20 rounds. With SIGKILL, resolves once they are all gone (or after ~2 s).
 * Returns how many processes were signalled.
 */
export async function endCommand(leader: number, run: string, sig: NodeJS.Signals): Promise<number> {
  try {
    process.kill(-leader, sig);
  } catch {
    // the group is gone; members that left it are found below
  }
  if (!HAVE_PROC) return 0;
  const signalled = new Set<number>();
  for (let round = 0; round < ROUNDS; round++) {
    const found = commandProcesses(leader, run).filter((p) => sig === 'SIGKILL' || !signalled.has(p));
    if (found.length === 0) break;
    signal(found, sig);
    for (const p of found) signalled.add(p);
    if (sig !== 'SIGKILL') break;
    await new Promise((r) => setImmediate(r));
  }
  if (sig === 'SIGKILL') {
    const deadline = Date.now() + 2_000;
    while (commandProcesses(leader, run).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
  }
  return signalled.size;
}
