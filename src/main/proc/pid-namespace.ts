/**
 * Isolation of the processes the agent can make run — the bash tool's commands, language servers, MCP stdio
 * servers — in their own PID namespace with a fresh /proc (issue 12 §1: Linux lets any process of the same user
 * read the environment another process STARTED with, `/proc/<pid>/environ`, so a command with a scrubbed
 * environment could still read a key from Landfall's own entry, from npm's or from the shell's that started it).
 * Inside the namespace /proc shows only the command's own processes: Landfall, its ancestors and every other
 * process of the user are not there to read, `ps eww` lists nothing else, and no pid outside can be named.
 *
 * How (Linux, util-linux `unshare`, and for root `setpriv` and `mount`, found on PATH once):
 *   - another user: `unshare --user --map-current-user --pid --fork --mount-proc --kill-child` — a user namespace
 *     that maps only the user's own uid and gid (files, permissions and `id` are the same; programs that need
 *     setuid or file capabilities — sudo, ping — lose them), a PID namespace and a mount namespace whose /proc is
 *     mounted afresh. The command runs with the user's uid, so it holds no capability and cannot unmount that
 *     /proc; in a nested user namespace the mount is locked and cannot be peeled off either;
 *   - root: `unshare --pid --fork --mount-proc --kill-child` without a user namespace (root keeps every file
 *     permission it has), then a small hardening step (HARDEN, `/bin/sh` as the namespace's pid 1) and `setpriv`.
 *     The fresh /proc and /sys still belong to the host's kernel, so root inside could set a kernel-run helper —
 *     `|/path/helper` in /proc/sys/kernel/core_pattern and a crash, `modprobe`, `poweroff_cmd`,
 *     /sys/kernel/uevent_helper, a cgroup v1 `release_agent` — which the kernel runs OUTSIDE every namespace as
 *     real root, free to read every process's environ. So HARDEN binds /proc/sys, /proc/sysrq-trigger, /proc/irq,
 *     /proc/bus, /proc/fs, /proc/acpi, /proc/scsi read-only over themselves and remounts every mount at or under
 *     /sys read-only (the namespace's own copies; the host's stay writable), checks none is writable, and only
 *     then execs `setpriv`, which drops from the bounding and inheritable sets the capabilities that reach past
 *     the namespace (DROPPED_CAPS: sys_admin — no unmounting, remounting or new namespaces — sys_module,
 *     sys_rawio, sys_ptrace, sys_boot, sys_time, mknod, syslog, mac_*, audit_control/read, perfmon, bpf,
 *     linux_immutable) and keeps
 *     every one that decides a file permission (dac_override, dac_read_search, fowner, chown, setuid…).
 *     What root inside still can: read and write every file root can — and so change a program or a file that
 *     something OUTSIDE runs later (a binary on PATH, `unshare` itself, /sbin/modprobe, a cron or shell start-up
 *     file), which then runs as real root outside the namespace. No process boundary holds a root that keeps its
 *     file permissions; run Landfall as another user (the form above) to be contained. It also keeps net_admin
 *     and net_raw, so it can change the host's network configuration (the network namespace is the host's).
 *     Where root lacks CAP_SYS_ADMIN (a container), the user-namespace form is tried, with the same hardening
 *     and every capability dropped.
 * Network, files, working directory, uid/gid and the environment (exactly the scrubbed one, child-env.ts) are
 * unchanged. Inside, a small init (INIT below, `/bin/sh`) is pid 1: it starts the command, waits for it,
 * counts the processes the command left running, reports "<status> <count>" on descriptor 4 and exits — and when
 * a namespace's pid 1 ends, the kernel kills every process left in it, however it detached (setsid, double fork,
 * closed descriptors, cleared environment). A watcher beside it ends the namespace when Landfall goes away (its
 * end of descriptor 4 closes), so nothing the agent started outlives a killed Landfall either.
 *
 * Whether this works is probed once per process (`pidNamespace()`): a real run that must see itself as a small
 * pid under that init, with the user's uid and gid, after trying to unmount /proc — and for root's forms, after
 * trying to remount the knobs writable, with none of them writable and none of DROPPED_CAPS in its bounding set
 * (else the next form, else inactive, with the reason). When it does not — not Linux, no `unshare` (for root
 * `setpriv`, `mount`), a kernel or policy that forbids the namespaces, or `LANDFALL_PID_NAMESPACE=off` — children
 * run as before (scrubbed environment, own session, ended with it) and one line says why on stderr; README
 * ("Keys and child processes") states what is and is not protected then.
 */
import { spawn, spawnSync, type ChildProcess, type IOType } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
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
 * Its first line on the channel, `started`, says the namespace is set up (root's hardening done) and the command
 * is about to run: a caller's timeout counts from there, not from the spawn (spawnIsolated `started`).
 */
export const INIT = `printf 'started\\n' 2>/dev/null >&4
exec 5<&0
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

/**
 * The /proc entries that reach host-wide kernel settings (Docker's read-only list, plus acpi and scsi): the fresh
 * /proc of the namespace is the host's kernel, so `/proc/sys/kernel/core_pattern`, `modprobe`, `poweroff_cmd` or
 * `/proc/sysrq-trigger` written there change the host. For root they are bound read-only over themselves.
 */
export const HOST_KNOBS_PROC = [
  '/proc/sys',
  '/proc/sysrq-trigger',
  '/proc/irq',
  '/proc/bus',
  '/proc/fs',
  '/proc/acpi',
  '/proc/scsi',
] as const;

/**
 * Run by root between `unshare` and `setpriv`, as the namespace's pid 1 with every capability still held (POSIX
 * sh; `$1` is util-linux `mount`, the rest the command to exec — setpriv, then INIT). It binds each HOST_KNOBS_PROC
 * entry over itself and remounts the bind read-only, remounts every mount at or under /sys read-only (the mount
 * namespace's own copies: the host's /sys stays as it is, and `--mount-proc` made the namespace's propagation
 * private, so nothing reaches the host), then checks that none of them is writable (`test -w` reports EROFS
 * for a read-only mount even to root) and execs the rest — also pid 1. Any failure exits 125 before the command
 * runs, with one line on stderr: a root command never runs with those knobs writable.
 */
export const HARDEN = `m=$1
shift
fail() { printf 'landfall: %s; the command was not run\\n' "$1" >&2; exit 125; }
s=
while read -r _ _ _ _ p _; do
  case $p in
  *\\\\*) fail "cannot name the mount $p to make it read-only" ;;
  /sys | /sys/*) s="$s $p" ;;
  esac
done </proc/self/mountinfo
for p in ${HOST_KNOBS_PROC.join(' ')}; do
  [ -e "$p" ] || continue
  { "$m" --bind "$p" "$p" && "$m" -o remount,bind,ro "$p"; } </dev/null || fail "cannot make $p read-only"
done
for p in $s; do
  "$m" -o remount,bind,ro "$p" </dev/null || fail "cannot make $p read-only"
done
for p in ${HOST_KNOBS_PROC.join(' ')} /proc/sys/kernel/core_pattern $s; do
  [ -e "$p" ] && [ -w "$p" ] && fail "$p is still writable"
done
exec "$@"`;

/** The hardening step's name as its `$0`. */
const HARDEN_NAME = 'landfall-harden';

/**
 * Capabilities a root command loses (bounding and inheritable sets), with their numbers: none of them decides a
 * file permission (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_CHOWN, CAP_SETUID… are kept), each reaches
 * past the namespace — mounts and namespaces (sys_admin), kernel modules (sys_module), /dev/mem, /dev/port,
 * /proc/kcore and I/O ports (sys_rawio), tracing a process (sys_ptrace), reboot and kexec (sys_boot), the clock
 * (sys_time), device nodes (mknod), the kernel log (syslog), LSM policy (mac_admin, mac_override), audit rules and
 * the audit stream of every process (audit_control, audit_read), system-wide perf sampling and BPF tracing,
 * which read other processes' memory (perfmon, bpf) — and the immutable / append-only file flags (linux_immutable:
 * `chattr +i` on a planted hook would keep Landfall's git sweep, tools/git-sweep.ts, from removing it). Those past
 * the kernel's cap_last_cap are left out.
 */
export const DROPPED_CAPS: readonly (readonly [string, number])[] = [
  ['linux_immutable', 9],
  ['sys_module', 16],
  ['sys_rawio', 17],
  ['sys_ptrace', 19],
  ['sys_admin', 21],
  ['sys_boot', 22],
  ['sys_time', 25],
  ['mknod', 27],
  ['audit_control', 30],
  ['mac_override', 32],
  ['mac_admin', 33],
  ['syslog', 34],
  ['audit_read', 37],
  ['perfmon', 38],
  ['bpf', 39],
];

function lastCap(): number {
  try {
    return Number(readFileSync('/proc/sys/kernel/cap_last_cap', 'utf8').trim());
  } catch {
    return 37;
  }
}

/** The capabilities dropped on this kernel, as names for setpriv and as a mask of CapBnd bits. */
function droppedHere(): { names: string[]; mask: bigint } {
  const last = lastCap();
  const here = DROPPED_CAPS.filter(([, n]) => n <= last);
  return { names: here.map(([name]) => name), mask: here.reduce((m, [, n]) => m | (1n << BigInt(n)), 0n) };
}

export interface Form {
  name: string;
  prefix: string[];
  /** Root's forms: the probe also checks that no HOST_KNOBS_PROC entry or /sys mount is writable and the caps. */
  hardened: boolean;
}

/** The wrappers to try, most faithful first (module docstring). */
function candidates(
  unshare: string,
  setpriv: string | undefined,
  mount: string | undefined,
  uid: number,
  names: string[],
): Form[] {
  const userns = [unshare, '--user', '--map-current-user', '--pid', '--fork', '--mount-proc', '--kill-child', '--'];
  if (uid !== 0) return [{ name: 'user+pid namespace', prefix: userns, hardened: false }];
  if (!setpriv || !mount) return [];
  const pidOnly = [unshare, '--pid', '--fork', '--mount-proc', '--kill-child', '--'];
  const harden = ['/bin/sh', '-c', HARDEN, HARDEN_NAME, mount];
  const drop = names.map((n) => `-${n}`).join(',');
  const dropSome = [setpriv, `--inh-caps=${drop}`, `--bounding-set=${drop}`, '--'];
  const dropAll = [setpriv, '--inh-caps=-all', '--bounding-set=-all', '--'];
  return [
    {
      name: 'pid namespace, host knobs read-only, capabilities past the namespace dropped',
      prefix: [...pidOnly, ...harden, ...dropSome],
      hardened: true,
    },
    {
      name: 'user+pid namespace, host knobs read-only, capabilities dropped',
      prefix: [...userns, ...harden, ...dropAll],
      hardened: true,
    },
  ];
}

/**
 * What the probe command prints inside, after trying to unmount /proc and to remount the read-only knobs
 * writable: pid, parent pid, uid, gid, whether its own start-up environment holds the probe's odd variable
 * exactly; then its bounding set (CapBnd, hex) and the knobs still writable (`,path` each: HOST_KNOBS_PROC,
 * core_pattern and every mount at or under /sys); then pid 1's command line.
 */
const PROBE_NAME = 'landfall.probe-var%%';
const PROBE = `umount /proc 2>/dev/null; umount -l /proc 2>/dev/null
for p in ${HOST_KNOBS_PROC.join(' ')} /sys; do mount -o remount,rw "$p" 2>/dev/null; done
echo "$$ $PPID $(id -u) $(id -g) $(tr '\\0' '\\n' < /proc/$$/environ | grep -c -x -F 'landfall.probe-var%%=a b')"
b=
w=
while read -r k v; do [ "$k" = CapBnd: ] && b=$v; done </proc/self/status
while read -r _ _ _ _ p _; do
  case $p in /sys | /sys/*) [ -w "$p" ] && w="$w,$p" ;; esac
done </proc/self/mountinfo
for p in ${HOST_KNOBS_PROC.join(' ')} /proc/sys/kernel/core_pattern; do [ -e "$p" ] && [ -w "$p" ] && w="$w,$p"; done
echo "$b $w"
tr '\\0\\n' '  ' < /proc/1/cmdline`;

/** Runs the probe under `form`; undefined when it held, else what was wrong. */
function probeOne(form: Form, env: string, uid: number, gid: number, mask: bigint): string | undefined {
  const [file, ...args] = form.prefix as [string, ...string[]];
  const command = argvOf(env, { ...childEnv(), [PROBE_NAME]: 'a b\nc' }, '/bin/sh', ['-c', PROBE]);
  const r = spawnSync(file, [...args, '/bin/sh', '-c', INIT, INIT_NAME, ...command], {
    env: {},
    stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'pipe'],
    timeout: 20_000,
  });
  if (r.error) return r.error.message;
  const out = r.output[1]?.toString() ?? '';
  if (r.status !== 0) return `exit ${r.status ?? r.signal}: ${(r.output[2]?.toString() ?? '').trim().slice(0, 200)}`;
  const [first = '', hardening = '', cmdline = ''] = out.split('\n');
  const [pid, ppid, u, g, exact] = first.split(' ').map(Number);
  // A small pid under pid 1 (the hardening's mounts take a few pids first); pid 1's command line below settles it.
  if (ppid !== 1 || !((pid ?? 0) > 1 && (pid ?? 0) < 1000)) return `the command saw itself as pid ${pid} under ${ppid}`;
  if (!cmdline.includes(INIT_NAME)) return '/proc inside still shows the outer process table';
  if (u !== uid || g !== gid) return `the command ran as ${u}:${g}, not ${uid}:${gid}`;
  if (exact !== 1) return 'the command did not get exactly the environment it was given';
  if (form.hardened) {
    const [bnd = '', writable = ''] = hardening.split(' ');
    if (writable) return `still writable inside: ${writable.slice(1).split(',').join(' ')}`;
    if (!/^[0-9a-f]+$/.test(bnd)) return 'the command could not read its capability bounding set';
    const kept = BigInt(`0x${bnd}`) & mask;
    if (kept !== 0n) {
      const names = DROPPED_CAPS.filter(([, n]) => (kept >> BigInt(n)) & 1n).map(([name]) => name);
      return `the command still holds ${names.join(', ')}`;
    }
  }
  return undefined;
}

/**
 * The probe under a wrapper of the caller's choosing (the tests: the old root form, CAP_SYS_ADMIN dropped and
 * nothing read-only, must be refused); undefined when it holds, else why not.
 */
export function probeWrapper(prefix: string[], hardened: boolean): string | undefined {
  const env = onPath('env', process.env['PATH']) ?? '/usr/bin/env';
  const form = { name: 'given', prefix, hardened };
  return probeOne(form, env, process.getuid?.() ?? -1, process.getgid?.() ?? -1, droppedHere().mask);
}

/** The forms the probe tries for `uid`, in order (the tests probe root's fallback form too); [] when tools lack. */
export function wrapperForms(uid: number): Form[] {
  const unshare = onPath('unshare', process.env['PATH']);
  if (!unshare) return [];
  const where = (name: string): string | undefined => onPath(name, process.env['PATH']);
  return candidates(unshare, where('setpriv'), where('mount'), uid, droppedHere().names);
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
  const { names, mask } = droppedHere();
  const forms = candidates(
    unshare,
    onPath('setpriv', process.env['PATH']),
    onPath('mount', process.env['PATH']),
    uid,
    names,
  );
  if (forms.length === 0)
    return off(
      'running as root without setpriv and mount (util-linux) to drop capabilities and make /proc/sys and /sys read-only',
    );
  const failures: string[] = [];
  for (const form of forms) {
    const why = probeOne(form, env, uid, gid, mask);
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
  /**
   * Resolves once the command is about to run: at once when not isolated, when the init says `started` when
   * isolated (root's hardening step runs before it: dozens of mount calls, seconds on a loaded machine), or when the
   * channel closes without it (the set-up failed; the child's exit says how).
   */
  started: Promise<void>;
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
    return { child, isolated: false, report: Promise.resolve(undefined), started: Promise.resolve() };
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
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const report = new Promise<InitReport | undefined>((resolve) => {
    if (!channel) {
      markStarted();
      return resolve(undefined);
    }
    let text = '';
    channel.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.startsWith('started\n')) markStarted();
    });
    channel.on('error', () => undefined);
    channel.on('close', () => {
      markStarted();
      const m = /^started\n(\d+) (\d+)\n$/.exec(text);
      resolve(m ? { status: Number(m[1]), left: Number(m[2]) } : undefined);
    });
  });
  return { child, isolated: true, report, started };
}
