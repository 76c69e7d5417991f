/**
 * Root's namespace (pid-namespace.ts, F1): a command running as root must not reach a kernel-run helper or another
 * host-wide knob — `core_pattern` with `|/path/helper` plus a crash would run the helper outside every namespace as
 * real root, free to read every process's start-up environment. Through the bash tool's own spawn path, real
 * processes, no mocks: writes to core_pattern, modprobe, poweroff_cmd, uevent_helper, a cgroup v1 release_agent and
 * /proc/sysrq-trigger are refused and the host's value is the same byte for byte afterwards (a write that got
 * through anyway is undone in `finally`); remounting /proc/sys or /sys writable, unmounting them and reading
 * /proc/kcore fail; the capabilities past the namespace are gone while root still writes a 0700 folder of
 * another uid (CAP_DAC_OVERRIDE kept); the host's mounts are unchanged; and the probe refuses the old form
 * (CAP_SYS_ADMIN dropped, nothing read-only). Prints `root-ns attempts: N held: N`. Runs only as root with the
 * namespace active (as another user the user-namespace form applies and DAC keeps those knobs out of reach).
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../tools/bash';
import { makeWorkspace, type Workspace } from '../tools/tool-test-kit';
import { DROPPED_CAPS, pidNamespace, probeWrapper, wrapperForms } from './pid-namespace';

const asRoot = process.getuid?.() === 0;
const active = process.platform === 'linux' && asRoot && pidNamespace().active;
const SKIP = !active;

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const tally = { attempts: 0, held: 0 };
const notes: string[] = [];
afterAll(() => {
  if (SKIP) return;
  console.log(`root-ns attempts: ${tally.attempts} held: ${tally.held}${notes.length ? ` (${notes.join('; ')})` : ''}`);
});

function count(held: boolean): boolean {
  tally.attempts++;
  if (held) tally.held++;
  return held;
}

async function bash(command: string): Promise<string> {
  const o = await ws.run(bashTool, { command });
  if (!o.ok) throw new Error(`bash failed: ${o.error.code}`);
  return o.output;
}

/** The first cgroup v1 hierarchy's release_agent (a kernel-run helper too), when the host has one. */
function releaseAgent(): string | undefined {
  try {
    for (const d of readdirSync('/sys/fs/cgroup')) {
      const f = path.join('/sys/fs/cgroup', d, 'release_agent');
      if (existsSync(f)) return f;
    }
  } catch {
    // no cgroup folder
  }
  return undefined;
}

/** Knob, what an attacker writes, whether the host's value can be read back to compare. */
const KNOBS: { file: string; value: string; readable: boolean }[] = [
  { file: '/proc/sys/kernel/core_pattern', value: '|/bin/false landfall-root-ns %p', readable: true },
  { file: '/proc/sys/kernel/modprobe', value: '/bin/false', readable: true },
  { file: '/proc/sys/kernel/poweroff_cmd', value: '/bin/false', readable: true },
  { file: '/sys/kernel/uevent_helper', value: '/bin/false', readable: true },
  // 'h' only prints sysrq's help to the kernel log, should the write ever get through.
  { file: '/proc/sysrq-trigger', value: 'h', readable: false },
  ...(releaseAgent() ? [{ file: releaseAgent() as string, value: '/bin/false', readable: true }] : []),
];

/** The host's mounts under /proc and /sys (this test's own mount namespace), to compare before and after. */
function hostMounts(): string {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((l) => / \/(proc|sys)(\/\S*)? /.test(l))
    .map((l) => l.split(' ').slice(2).join(' '))
    .join('\n');
}
const mountsBefore = hostMounts();

describe.skipIf(SKIP)(
  'a root command in its namespace reaches no kernel-run helper or host-wide knob (runs as root with the namespace active; otherwise the user-namespace form applies)',
  () => {
    it('the probe chose the hardened root form', () => {
      expect(pidNamespace().reason).toBe(
        'pid namespace, host knobs read-only, capabilities past the namespace dropped',
      );
    });

    it.each(KNOBS)('writing $file is refused and the host value is unchanged', async ({ file, value, readable }) => {
      const present = existsSync(file);
      const before = present && readable ? readFileSync(file) : undefined;
      let after: Buffer | undefined;
      let out: string;
      try {
        out = await bash(`printf '%s\\n' '${value}' > ${file} && echo WROTE || echo REFUSED`);
      } finally {
        after = present && readable ? readFileSync(file) : undefined;
        // Never leave the machine changed: a write that got through is undone at once.
        if (before && after && !before.equals(after)) writeFileSync(file, before);
      }
      if (!present) notes.push(`${file} absent on this kernel`);
      const same = before === undefined || (after !== undefined && before.equals(after));
      const held = count(out.includes('REFUSED') && !out.includes('WROTE') && same);
      expect([out.includes('REFUSED'), out.includes('WROTE'), same]).toEqual([true, false, true]);
      if (present) expect(out).toMatch(/Read-only file system/);
      expect(held).toBe(true);
    });

    it.each([
      'mount -o remount,rw /proc/sys',
      'mount -o remount,rw /sys',
      'mount -o remount,rw /sys/fs/cgroup',
      'umount /proc/sys',
      'umount -l /proc/sys',
      'umount -l /sys',
      'mount -t proc proc /mnt',
      'mount -t sysfs sysfs /mnt',
      'unshare --mount --propagation private sh -c "umount -l /proc/sys"',
    ])('`%s` fails and the knobs stay read-only', async (attempt) => {
      const out = await bash(
        `${attempt} && echo UNDONE || echo FAILED; [ -w /proc/sys/kernel/core_pattern ] || [ -w /sys/kernel ] && echo WRITABLE || echo READONLY`,
      );
      const held = count(out.includes('FAILED') && out.includes('READONLY') && !out.includes('WRITABLE'));
      expect(out).toMatch(/FAILED\nREADONLY\n/);
      expect(held).toBe(true);
    });

    it('holds none of the capabilities past the namespace, keeps those that decide file permissions; no /proc/kcore', async () => {
      const out = await bash(
        "grep -E '^Cap(Eff|Bnd|Inh):' /proc/self/status; head -c 16 /proc/kcore >/dev/null && echo KCORE || echo NOKCORE",
      );
      const caps = Object.fromEntries(
        [...out.matchAll(/^(Cap\w+):\s+([0-9a-f]+)$/gm)].map((m) => [m[1], BigInt(`0x${m[2]}`)]),
      );
      const last = Number(readFileSync('/proc/sys/kernel/cap_last_cap', 'utf8'));
      const dropped = DROPPED_CAPS.filter(([, n]) => n <= last);
      const has = (set: bigint | undefined, n: number): boolean => (((set ?? 0n) >> BigInt(n)) & 1n) === 1n;
      const still = dropped.filter(
        ([, n]) => has(caps['CapEff'], n) || has(caps['CapBnd'], n) || has(caps['CapInh'], n),
      );
      // chown, dac_override, dac_read_search, fowner, fsetid, kill, setgid, setuid (linux_immutable is dropped)
      const fileCaps = [0, 1, 2, 3, 4, 5, 6, 7];
      const kept = fileCaps.filter((n) => has(caps['CapEff'], n));
      expect(count(still.length === 0)).toBe(true);
      expect(count(out.includes('NOKCORE'))).toBe(true);
      expect([still.map(([name]) => name), kept, out.includes('NOKCORE')]).toEqual([[], fileCaps, true]);
    });

    it('still writes a 0700 folder of another uid (CAP_DAC_OVERRIDE kept) and chowns there', async () => {
      const theirs = path.join(ws.outer, 'theirs');
      mkdirSync(theirs);
      writeFileSync(path.join(theirs, 'f'), 'theirs\n');
      chmodSync(path.join(theirs, 'f'), 0o600);
      chownSync(path.join(theirs, 'f'), 65534, 65534);
      chmodSync(theirs, 0o700);
      chownSync(theirs, 65534, 65534);
      const out = await bash(
        `cd ${theirs} && printf 'root wrote\\n' >> f && printf new > new && chown 65534:65534 new && cat f && stat -c '%u %a' . new`,
      );
      expect(out).toBe('theirs\nroot wrote\n65534 700\n65534 644\n(exit code 0)');
      expect(readFileSync(path.join(theirs, 'f'), 'utf8')).toBe('theirs\nroot wrote\n');
    });

    it('the probe refuses the old root form (CAP_SYS_ADMIN dropped, nothing read-only) and the half-hardened one', () => {
      const [hardened] = wrapperForms(0);
      const prefix = hardened?.prefix ?? [];
      const unshareEnd = prefix.indexOf('--') + 1;
      const setpriv = prefix.find((a) => a.endsWith('/setpriv')) as string;
      const old = [...prefix.slice(0, unshareEnd), setpriv, '--inh-caps=-sys_admin', '--bounding-set=-sys_admin', '--'];
      const oldWhy = probeWrapper(old, true);
      // The /proc/sys folder itself refuses writes even to root; the knobs in it are what the probe names.
      expect(oldWhy).toMatch(/^still writable inside: \/sys .*\/proc\/sys\/kernel\/core_pattern$/);
      const half = [
        ...prefix.slice(0, prefix.indexOf(setpriv)),
        setpriv,
        '--inh-caps=-sys_admin',
        '--bounding-set=-sys_admin',
        '--',
      ];
      expect(probeWrapper(half, true)).toMatch(
        /^the command still holds linux_immutable, sys_module, sys_rawio, sys_ptrace, sys_boot/,
      );
      notes.push(`the probe refuses the old form (${(oldWhy ?? '').split(' ').length - 3} knobs writable there)`);
    });

    it('root’s fallback form (user namespace, every capability dropped) passes the same probe here', () => {
      const forms = wrapperForms(0);
      expect(forms.map((f) => [f.name, probeWrapper(f.prefix, f.hardened) ?? 'holds'])).toEqual([
        ['pid namespace, host knobs read-only, capabilities past the namespace dropped', 'holds'],
        ['user+pid namespace, host knobs read-only, capabilities dropped', 'holds'],
      ]);
    });

    it('left the host’s /proc and /sys mounts as they were', () => {
      expect(hostMounts()).toBe(mountsBefore);
      expect(readFileSync('/proc/self/mountinfo', 'utf8')).toMatch(/ \/sys rw[, ]/);
    });
  },
);
