/**
 * Every process a bash command started, found and ended (the hostile review: `setsid` children survived stop and
 * timeout, background children survived the command's normal end, and `setsid -f env -i …` children survived
 * because they were found by an environment marker that `env -i` removes). The command runs as the leader of its
 * own session and process group (spawn `detached`) and carries two tags of its run (`RunTag`):
 *   - a DESCRIPTOR: a file Landfall creates for this run only (then unlinks), handed to the command as an inherited
 *     descriptor. Every child inherits it through fork and exec whatever it does to its environment or session
 *     (`env -i`, `setsid`, `nohup`, `bash -c "… & exit"`), and /proc/<pid>/fd shows it;
 *   - an ENVIRONMENT marker (`LANDFALL_BASH_RUN=<run>`), the second signal: a child that closed the descriptor but
 *     kept its environment.
 * A process belongs to the command when, in /proc:
 *   - its session id or process group id is the leader's (everything started normally, `&` jobs, `nohup`), or
 *   - one of its descriptors is the run's file, or its environment carries the marker (a child that called
 *     setsid() and left the session — also after its parent died and it was re-parented to init), or
 *   - an ancestor belongs to the command (a grandchild that called setsid() and shed both tags while its parent
 *     lives).
 * `endCommand` signals all of them, scans again (a process may fork while it is being killed) and repeats until
 * none is left or the rounds run out; with SIGKILL it waits until each is really gone (a zombie is gone).
 *
 * Where the command runs in its own PID namespace (proc/pid-namespace.ts — Linux, when the probe passes) nothing
 * escapes: the leader is `unshare`, the namespace's init and everything under it share its session, and when the
 * command ends (normally, or because its init or `unshare` was killed) the kernel kills every process left in the
 * namespace, a daemon that left the session, closed every inherited descriptor and cleared its environment
 * included. At such a command's normal end bash.ts takes the count of what was left from the init's report and
 * does not scan; on a stop the scan below still runs: it finds them while they live and counts what the stop ended.
 *
 * Without the namespace (macOS, a kernel or policy that forbids it, `LANDFALL_PID_NAMESPACE=off`) what still
 * escapes is a process that leaves the session, closes every inherited descriptor, clears its environment AND
 * outlives every ancestor before a scan (a daemon written to do exactly that): it cannot be told apart from any
 * other process of the user without cgroups (not available to an unprivileged desktop app on most systems).
 * Where /proc does not exist (macOS) only the process group is signalled.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Name of the environment variable that marks a command's processes. */
export const RUN_MARKER = 'LANDFALL_BASH_RUN';

/**
 * The two tags of one command's run. `fd` is Landfall's own descriptor of the run's file: pass it to the child's
 * stdio slot 3 (it becomes the child's descriptor 3), then call `releaseRunTag` once the child is spawned.
 */
export interface RunTag {
  /** Random hex, the value of the environment marker. */
  run: string;
  /** Absolute path of the run's file (unlinked by `releaseRunTag`; /proc then shows it with " (deleted)"). */
  file: string;
  /** Landfall's descriptor of the file, or -1 once released. */
  fd: number;
}

/**
 * A new run: a random id and a file created for it alone (exclusive create, mode 0600, in the OS temp dir), opened
 * read-only. When the temp dir is not writable the tag has no descriptor (`fd` -1): the command still runs, and
 * its processes are found by session, marker and ancestry only.
 */
export function createRunTag(): RunTag {
  const run = randomBytes(8).toString('hex');
  const file = path.join(os.tmpdir(), `landfall-run-${run}`);
  try {
    return { run, file, fd: openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_RDONLY, 0o600) };
  } catch {
    return { run, file, fd: -1 };
  }
}

/** Closes Landfall's own descriptor of the run's file and removes the file (the child's copy stays open). */
export function releaseRunTag(tag: RunTag): void {
  if (tag.fd >= 0) closeSync(tag.fd);
  tag.fd = -1;
  try {
    unlinkSync(tag.file);
  } catch {
    // already removed
  }
}

/** The environment variables that carry the marker of `tag`'s run (laid over the child's environment). */
export function runMarkerEnv(tag: RunTag): Record<string, string> {
  return { [RUN_MARKER]: tag.run };
}

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

/** True when one of process `pid`'s descriptors is the run's file `file` (also after the file was unlinked). */
function holdsTag(pid: number, file: string): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // another user's process, or gone
  }
  const deleted = `${file} (deleted)`;
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target === file || target === deleted) return true;
    } catch {
      // closed while we looked
    }
  }
  return false;
}

/** Pids of the live processes that belong to the command led by `leader` with the tags of `tag` (module docs). */
export function commandProcesses(leader: number, tag: RunTag): number[] {
  if (!HAVE_PROC) return [];
  const marker = `${RUN_MARKER}=${tag.run}\0`;
  const all = processes().filter((p) => p.pid !== process.pid);
  const mine = new Set<number>();
  // Never by the leader's bare pid: the leader leads its session for life (it cannot leave it), so while it lives its
  // session id names it; once it has exited and been reaped its pid may be reused by any program of the user. A
  // session or group id is not reused while a process still holds it.
  for (const p of all)
    if (p.sid === leader || p.pgid === leader || holdsTag(p.pid, tag.file) || marked(p.pid, marker)) mine.add(p.pid);
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
export async function endCommand(leader: number, tag: RunTag, sig: NodeJS.Signals): Promise<number> {
  try {
    process.kill(-leader, sig);
  } catch {
    // the group is gone; members that left it are found below
  }
  if (!HAVE_PROC) return 0;
  const signalled = new Set<number>();
  for (let round = 0; round < ROUNDS; round++) {
    const found = commandProcesses(leader, tag).filter((p) => sig === 'SIGKILL' || !signalled.has(p));
    if (found.length === 0) break;
    signal(found, sig);
    for (const p of found) signalled.add(p);
    if (sig !== 'SIGKILL') break;
    await new Promise((r) => setImmediate(r));
  }
  if (sig === 'SIGKILL') {
    const deadline = Date.now() + 2_000;
    while (commandProcesses(leader, tag).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
  }
  return signalled.size;
}
