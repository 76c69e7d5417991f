/**
 * Isolation of the processes the agent can make run — the bash tool's commands, language servers, MCP stdio
 * servers — in their own PID namespace with a fresh /proc (issue 12 §1: Linux lets any process of the same user
 * read the environment another process STARTED with, `/proc/<pid>/environ`, so a command with a scrubbed
 * environment could still read a key from Landfall's own entry, from npm's or from the shell's that started it).
 * Inside the namespace /proc shows only the command's own processes: Landfall, its ancestors and every other
 * process of the user are not there to read, `ps eww` lists nothing else, and no pid outside can be named.
 *
 * How (Linux, util-linux `unshare` and `setpriv`, found on PATH once):
 *   - another user: `unshare --user --map-current-user --pid --fork --mount-proc --kill-child` — a user namespace
 *     that maps only the user's own uid and gid (files, permissions and `id` are the same; programs that need
 *     setuid or file capabilities — sudo, ping — lose them), a PID namespace and a mount namespace whose /proc is
 *     mounted afresh. The command runs with the user's uid, so it holds no capability and cannot unmount that
 *     /proc; in a nested user namespace the mount is locked and cannot be peeled off either;
 *   - root: `unshare --pid --fork --mount-proc --kill-child` without a user namespace (root keeps every file
 *     permission it has), then `setpriv` drops CAP_SYS_ADMIN from the bounding and inheritable sets, so the
 *     command cannot unmount the fresh /proc, mount another or enter another namespace. (A command running as root
 *     can still do what root can — load a kernel module, read raw memory — no process boundary holds root.)
 *     Where root lacks CAP_SYS_ADMIN (a container), the user-namespace form is tried with every capability
 *     dropped.
 * Network, files, working directory, uid/gid and the environment (exactly the scrubbed one, child-env.ts) are
 * unchanged. Inside, a small init (INIT below, `/bin/sh`) is pid 1: it starts the command as pid 2, waits for it,
 * counts the processes the command left running, reports "<status> <count>" on descriptor 4 and exits — and when
 * a namespace's pid 1 ends, the kernel kills every process left in it, however it detached (setsid, double fork,
 * closed descriptors, cleared environment). A watcher beside it ends the namespace when Landfall goes away (its
 * end of descriptor 4 closes), so nothing the agent started outlives a killed Landfall either.
 *
 * Whether this works is probed once per process (`pidNamespace()`): a real run that must see itself as pid 2
 * under that init, with the user's uid and gid, after trying to unmount /proc. When it does not — not Linux, no
 * `unshare`/`setpriv`, a kernel or policy that forbids the namespaces, or `LANDFALL_PID_NAMESPACE=off` — children
 * run as before (scrubbed environment, own session, ended with it) and one line says why on stderr; README
 * ("Keys and child processes") states what is and is not protected then.
 */
import { spawn, spawnSync, type ChildProcess, type IOType } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { childEnv } from './child-env';

/** Descriptor of the init's channel in the namespace: its report out, and Landfall's liveness in. */
export const INIT_CHANNEL_FD = 4;

/**
 * pid 1 of the namespace (POSIX sh). `$@` is the command as `env -i -- NAME=VALUE… file args` (argvOf): the
 * shell never hands the command an environment of its own, since a shell drops variables whose names it cannot
 * spell (`BASH_FUNC_f%%`, `a-b`) and adds PWD — so the command gets exactly the environment it was given. stdin is
 * handed to the command explicitly (an asynchronous command would get /dev/null); the channel is closed in the
 * command; the init's own stderr then goes to /dev/null (the shell would print "Terminated" for a command a stop
 * ended); the watcher reads the channel until Landfall's end closes, then kills everything but pid 1 and itself
 * (`kill -KILL -1`). Zombies are not counted. Exits with the command's status (128+n when a signal ended it).
 */
export const INIT = `exec 5<&0
"$@" <&5 5<&- 4>&- &
c=$!
exec 5<&- </dev/null 2>/dev/null
{ read -r _ <&4; kill -KILL -1; } 2>/dev/null &
w=$!
wait "$c"
st=$?
n=0
for d in /proc/[0-9]*; do
  p=\${d#/proc/}
  { [ "$p" = 1 ] || [ "$p" = "$w" ]; } && continue
  read -r l < "$d/stat" 2>/dev/null || continue
  s=\${l##*) }
  s=\${s%% *}
  [ "$s" = Z ] || n=$((n + 1))
done
printf '%s %s\\n' "$st" "$n" >&4 2>/dev/null
exit "$st"`;

/** The init's name as its `$0` (what /proc/1/cmdline shows inside). */
const INIT_NAME = 'landfall-init';

/** The probe's answer: whether children are isolated, how, and why not when they are not. */
export interface PidNamespaceState {
  active: boolean;
  /** The wrapper in front of `/bin/sh -c INIT …` (absolute paths), empty when not active. */
  prefix: string[];
  /** Absolute path of `env` (coreutils), which hands the command its environment; '' when not active. */
  env: string;
  /** Which form passed the probe, or why none did (one line, for the log and the tests). */
  reason: string;
}

function onPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The wrappers to try, most faithful first (module docstring). */
function candidates(unshare: string, setpriv: string | undefined, uid: number): { name: string; prefix: string[] }[] {
  const userns = [unshare, '--user', '--map-current-user', '--pid', '--fork', '--mount-proc', '--kill-child', '--'];
  if (uid !== 0) return [{ name: 'user+pid namespace', prefix: userns }];
  if (!setpriv) return [];
  const pidOnly = [unshare, '--pid', '--fork', '--mount-proc', '--kill-child', '--'];
  const dropAdmin = [setpriv, '--inh-caps=-sys_admin', '--bounding-set=-sys_admin', '--'];
  const dropAll = [setpriv, '--inh-caps=-all', '--bounding-set=-all', '--'];
  return [
    { name: 'pid namespace, CAP_SYS_ADMIN dropped', prefix: [...pidOnly, ...dropAdmin] },
    { name: 'user+pid namespace, capabilities dropped', prefix: [...userns, ...dropAll] },
  ];
}

/**
 * What the probe command prints inside, after trying to unmount /proc: pid, parent pid, uid, gid, whether its own
 * start-up environment holds the probe's odd variable exactly, then pid 1's command line.
 */
const PROBE_NAME = 'landfall.probe-var%%';
const PROBE = `umount /proc 2>/dev/null; umount -l /proc 2>/dev/null
echo "$$ $PPID $(id -u) $(id -g) $(tr '\\0' '\\n' < /proc/$$/environ | grep -c -x -F 'landfall.probe-var%%=a b')"
tr '\\0\\n' '  ' < /proc/1/cmdline`;

/** Runs the probe under `prefix`; undefined when it held, else what was wrong. */
function probeOne(prefix: string[], env: string, uid: number, gid: number): string | undefined {
  const [file, ...args] = prefix as [string, ...string[]];
  const command = argvOf(env, { ...childEnv(), [PROBE_NAME]: 'a b\nc' }, '/bin/sh', ['-c', PROBE]);
  const r = spawnSync(file, [...args, '/bin/sh', '-c', INIT, INIT_NAME, ...command], {
    env: {},
    stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'],
    timeout: 20_000,
  });
  if (r.error) return r.error.message;
  const out = r.output[1]?.toString() ?? '';
  if (r.status !== 0) return `exit ${r.status ?? r.signal}: ${(r.output[2]?.toString() ?? '').trim().slice(0, 200)}`;
  const [first = '', cmdline = ''] = out.split('\n');
  const [pid, ppid, u, g, exact] = first.split(' ').map(Number);
  if (ppid !== 1 || !((pid ?? 0) > 1 && (pid ?? 0) < 10)) return `the command saw itself as pid ${pid} under ${ppid}`;
  if (!cmdline.includes(INIT_NAME)) return '/proc inside still shows the outer process table';
  if (u !== uid || g !== gid) return `the command ran as ${u}:${g}, not ${uid}:${gid}`;
  if (exact !== 1) return 'the command did not get exactly the environment it was given';
  return undefined;
}

let state: PidNamespaceState | undefined;

/** Probe (once per process; `fresh` probes again) — see the module docstring. Logs one line when inactive. */
export function pidNamespace(fresh = false): PidNamespaceState {
  if (state && !fresh) return state;
  state = probe();
  if (!state.active)
    process.stderr.write(
      `landfall: commands and servers the agent starts run WITHOUT their own PID namespace (${state.reason}); ` +
        'they can read the start-up environment of your other processes in /proc (README: Keys and child processes).\n',
    );
  return state;
}

function probe(): PidNamespaceState {
  const off = (reason: string): PidNamespaceState => ({ active: false, prefix: [], env: '', reason });
  if (process.platform !== 'linux') return off(`${process.platform} has no PID namespaces`);
  if (process.env['LANDFALL_PID_NAMESPACE'] === 'off') return off('LANDFALL_PID_NAMESPACE=off');
  const unshare = onPath('unshare', process.env['PATH']);
  if (!unshare) return off('no unshare (util-linux) on PATH');
  const env = onPath('env', process.env['PATH']);
  if (!env) return off('no env (coreutils) on PATH');
  const uid = process.getuid?.() ?? -1;
  const gid = process.getgid?.() ?? -1;
  const forms = candidates(unshare, onPath('setpriv', process.env['PATH']), uid);
  if (forms.length === 0) return off('running as root without setpriv (util-linux) to drop CAP_SYS_ADMIN');
  const failures: string[] = [];
  for (const form of forms) {
    const why = probeOne(form.prefix, env, uid, gid);
    if (why === undefined) return { active: true, prefix: form.prefix, env, reason: form.name };
    failures.push(`${form.name}: ${why}`);
  }
  return off(failures.join('; '));
}

/**
 * The command as the init runs it: `env -i -- NAME=VALUE… file args`, so `environment` reaches it byte for byte.
 * A `file` whose path holds '=' (env would read it as a variable) is started through `/bin/sh -c 'exec "$0" "$@"'`
 * — still isolated, but then variables a shell cannot name are left out.
 */
export function argvOf(env: string, environment: Record<string, string>, file: string, args: string[]): string[] {
  const vars = Object.entries(environment).map(([k, v]) => `${k}=${v}`);
  const run = file.includes('=') ? ['/bin/sh', '-c', 'exec "$0" "$@"', file] : [file];
  return [env, '-i', '--', ...vars, ...run, ...args];
}

/** What the init reported: the command's exit status and how many processes it left running. */
export interface InitReport {
  status: number;
  left: number;
}

/** A spawned child, whether it runs isolated, and the init's report (undefined when not isolated or killed). */
export interface IsolatedChild {
  child: ChildProcess;
  isolated: boolean;
  report: Promise<InitReport | undefined>;
}

/**
 * `spawn(file, args, options)` inside the command's own PID namespace when the probe allows it, else plainly.
 * `stdio` lists descriptors 0–3 at most (descriptor 4 is the init's channel when isolated). A `file` that is not
 * found on the environment's PATH (nor as a path) is spawned plainly, so the caller sees ENOENT as before —
 * nothing runs, so there is nothing to isolate.
 */
export function spawnIsolated(
  file: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; detached: boolean; stdio: (IOType | number)[] },
): IsolatedChild {
  const ns = pidNamespace();
  const found = file.includes('/') ? file : onPath(file, options.env['PATH']);
  if (!ns.active || found === undefined) {
    const child: ChildProcess = spawn(file, args, options);
    return { child, isolated: false, report: Promise.resolve(undefined) };
  }
  const stdio: (IOType | number)[] = [...options.stdio];
  while (stdio.length < INIT_CHANNEL_FD) stdio.push('ignore');
  stdio[INIT_CHANNEL_FD] = 'pipe';
  const [wrapper, ...pre] = ns.prefix as [string, ...string[]];
  const command = argvOf(ns.env, options.env, found, args);
  // The environment travels in the arguments (argvOf); the wrapper and the init need none of their own.
  const child: ChildProcess = spawn(wrapper, [...pre, '/bin/sh', '-c', INIT, INIT_NAME, ...command], {
    ...options,
    env: {},
    stdio,
  });
  const channel = child.stdio[INIT_CHANNEL_FD] as NodeJS.ReadableStream | null;
  const report = new Promise<InitReport | undefined>((resolve) => {
    if (!channel) return resolve(undefined);
    let text = '';
    channel.on('data', (d: Buffer) => (text += d.toString()));
    channel.on('error', () => undefined);
    channel.on('close', () => {
      const m = /^(\d+) (\d+)\n$/.exec(text);
      resolve(m ? { status: Number(m[1]), left: Number(m[2]) } : undefined);
    });
  });
  return { child, isolated: true, report };
}
