import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pidNamespace } from '../proc/pid-namespace';
import { bashTool, MAX_CAPTURE_BYTES } from './bash';
import { makeWorkspace, type Workspace } from './tool-test-kit';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/**
 * A sleeper the test can find from outside: `sleep <arg>` with an argument no other process has. Pids a command
 * prints are no use here — in its own PID namespace (proc/pid-namespace.ts) `$$` is the pid inside, which names
 * another process (or none) in Landfall's /proc.
 */
const RUN_TOKEN = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
let sleepers = 0;
function sleeperArg(): string {
  return `1000.${RUN_TOKEN}${++sleepers}`;
}

/** Live (non-zombie) processes whose command line is exactly `sleep <arg>`, as Landfall's /proc shows them. */
function sleeping(arg: string): number[] {
  const want = `sleep\0${arg}\0`;
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1') !== want) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!/^\d+ \(.*\) [ZX]/.test(stat)) out.push(Number(name));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

/** True while a `sleep <arg>` runs; a test that fails kills it so no sleeper outlives the run. */
function alive(arg: string): boolean {
  return sleeping(arg).length > 0;
}

describe('bash', () => {
  it('runs in the project folder, merges stdout and stderr, reports the exit code', async () => {
    const o = await ws.run(bashTool, { command: 'pwd; echo err >&2; exit 3' });
    expect(o.ok && o.output).toBe(`${ws.root}\nerr\n(exit code 3)`);
    expect(o.ok && o.metadata.exitCode).toBe(3);
  });

  it('gives the whole output and the status line back (the one output cap decides what the model sees)', async () => {
    const o = await ws.run(bashTool, { command: 'seq 1 20000' });
    const expected = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('');
    expect(o.ok && o.output).toBe(`${expected}(exit code 0)`);
    expect(o.ok && o.metadata.chars).toBe(expected.length);
  });

  it('on timeout the whole process group is stopped, grandchildren included', async () => {
    const arg = sleeperArg();
    const o = await ws.run(bashTool, { command: `sleep ${arg} & sleep 30`, timeout: 300 });
    expect(o.ok && o.output).toBe('(timed out after 300 ms; the command and its child processes were stopped)');
    expect(alive(arg)).toBe(false);
  });

  it('on abort: SIGTERM then SIGKILL for a group that ignores SIGTERM; the call fails as interrupted', async () => {
    const arg = sleeperArg();
    const controller = new AbortController();
    // Stopped once the command is running (it says so with a file), not at a set time: on a loaded machine the
    // namespace's set-up alone can take longer than any fixed delay.
    const ready = path.join(ws.root, `ready-${arg}`);
    let abortedAt = 0;
    void (async () => {
      while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
      abortedAt = Date.now();
      controller.abort();
    })();
    const o = await ws.run(
      bashTool,
      { command: `trap '' TERM; echo started; touch ready-${arg}; sleep ${arg} & wait` },
      { signal: controller.signal },
    );
    expect(!o.ok && o.error.code).toBe('interrupted');
    expect(!o.ok && [o.error.message, o.output.includes('Output so far:\nstarted')]).toEqual([
      'The command was stopped by the user.',
      true,
    ]);
    // SIGTERM is ignored: SIGKILL follows after the 2 s grace period.
    expect(Date.now() - abortedAt).toBeLessThan(6000);
    expect(alive(arg)).toBe(false);
  });

  it('asks permission with the command; a refusal runs nothing', async () => {
    const o = await ws.run(bashTool, { command: 'touch made.txt' }, { ask: async () => ({ allow: false }) });
    expect(!o.ok && o.error.code).toBe('permission_denied');
    expect(existsSync(path.join(ws.root, 'made.txt'))).toBe(false);
  });

  it('a command whose output passes MAX_CAPTURE_BYTES is stopped (the app never buffers unbounded output) and says so', async () => {
    const bytes = MAX_CAPTURE_BYTES + 4 * 1024 * 1024;
    const o = await ws.run(bashTool, { command: `head -c ${bytes} /dev/zero | tr '\\0' y; echo done-marker` });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.metadata.outputCapped).toBe(true);
    expect(o.output).not.toContain('done-marker');
    expect(o.output).toMatch(
      /\(stopped: the output passed \d+ MB; the command and its child processes were stopped\)$/,
    );
    expect(o.metadata.chars as number).toBeLessThanOrEqual(MAX_CAPTURE_BYTES);
  });
});

/**
 * Processes that leave the command's process group (hostile review: `setsid` children survived stop and
 * timeout, and background children survived the normal end): a setsid child, a nohup child, a double fork whose
 * grandchild calls setsid and is re-parented to init, and a plain background job. Each writes a ready file, then
 * becomes a `sleep` with an argument of its own; the command waits until all four are ready. After the tool
 * returns, each sleeper is looked for in /proc.
 */
function leavers(): { command: string; args: string[]; ready: string[] } {
  const args = [sleeperArg(), sleeperArg(), sleeperArg(), sleeperArg()];
  const ready = ['s.ready', 'n.ready', 'd.ready', 'b.ready'];
  const command = [
    `setsid sh -c 'echo 1 > s.ready; exec sleep ${args[0]}' &`,
    `nohup sh -c 'echo 1 > n.ready; exec sleep ${args[1]}' > /dev/null 2>&1 &`,
    `sh -c '(setsid sh -c "echo 1 > d.ready; exec sleep ${args[2]}" &)' &`,
    `sh -c 'echo 1 > b.ready; exec sleep ${args[3]}' &`,
    `until ${ready.map((f) => `[ -s ${f} ]`).join(' && ')}; do :; done`,
  ].join('\n');
  return { command, args, ready };
}

async function whenExists(files: string[]): Promise<void> {
  while (!files.every((f) => existsSync(path.join(ws.root, f)) && readFileSync(path.join(ws.root, f), 'utf8') !== ''))
    await new Promise((r) => setTimeout(r, 10));
}

/** Counts each sleeper into `tally`; returns the `labels` of those still running (killed, so none outlives a failing run). */
function survivors(tally: { attempts: number; held: number }, args: string[], labels: string[]): string[] {
  const out: string[] = [];
  for (const [i, arg] of args.entries()) {
    tally.attempts++;
    const pids = sleeping(arg);
    if (pids.length === 0) tally.held++;
    else out.push(labels[i] ?? arg);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
  }
  return out;
}

describe('bash ends every process a command started (attempts / held)', () => {
  const tally = { attempts: 0, held: 0 };
  afterAll(() => console.log(`bash session processes: ${tally.attempts} attempts / ${tally.held} held`));

  it('at the normal end: setsid, nohup, double-fork and background children are ended, and the output says so', async () => {
    for (let i = 0; i < 3; i++) {
      const l = leavers();
      const o = await ws.run(bashTool, { command: `${l.command}\necho ready` });
      expect(o.ok && o.output).toMatch(
        /^ready\n\(exit code 0\)\n\(\d+ background process\(es\) the command left running were stopped/,
      );
      expect(survivors(tally, l.args, l.ready)).toEqual([]);
      for (const f of l.ready) rmSync(path.join(ws.root, f), { force: true });
    }
  });

  it('at a timeout: none of them survives', async () => {
    const l = leavers();
    const o = await ws.run(bashTool, { command: `${l.command}\nsleep 1000`, timeout: 1500 });
    expect(o.ok && o.output).toBe('(timed out after 1500 ms; the command and its child processes were stopped)');
    expect(survivors(tally, l.args, l.ready)).toEqual([]);
  });

  it('at a stop (abort): none of them survives', async () => {
    const l = leavers();
    const controller = new AbortController();
    const running = ws.run(bashTool, { command: `${l.command}\nsleep 1000` }, { signal: controller.signal });
    await whenExists(l.ready);
    controller.abort();
    const o = await running;
    expect(!o.ok && o.error.code).toBe('interrupted');
    expect(survivors(tally, l.args, l.ready)).toEqual([]);
  });
});

/**
 * Children that leave the session AND scrub their environment (hostile review: `setsid -f env -i sleep …`, `env -i
 * setsid -f …`, `setsid -f env -u LANDFALL_BASH_RUN …`, `setsid -f env -i bash -c "sleep … & exit"` survived, since
 * only the environment marker found them). Each writes a ready file from a shell with the scrubbed environment.
 */
function scrubbers(): { command: string; args: string[]; labels: string[] } {
  const args = Array.from({ length: 6 }, sleeperArg);
  const labels = [
    `setsid -f env -i sh -c 'echo 1 > e1.ready; exec sleep ${args[0]}'`,
    `env -i setsid -f sh -c 'echo 1 > e2.ready; exec sleep ${args[1]}'`,
    `setsid -f env -u LANDFALL_BASH_RUN sh -c 'echo 1 > e3.ready; exec sleep ${args[2]}'`,
    `setsid -f env -i bash -c "sh -c 'echo 1 > e4.ready; exec sleep ${args[3]}' & exit"`,
    `setsid -f env -i nohup sh -c 'echo 1 > e5.ready; exec sleep ${args[4]}' > /dev/null 2>&1`,
    `env -i setsid -f bash -c "(setsid sh -c 'echo 1 > e6.ready; exec sleep ${args[5]}' &); exit"`,
  ];
  const wait = `until ${labels.map((_, i) => `[ -s e${i + 1}.ready ]`).join(' && ')}; do :; done`;
  return { command: [...labels, wait].join('\n'), args, labels };
}

describe('bash ends children that scrubbed their environment (attempts / held)', () => {
  const tally = { attempts: 0, held: 0 };
  afterAll(() => console.log(`bash scrubbed-env children: ${tally.attempts} attempts / ${tally.held} held`));

  it('at the normal end and at a timeout, none of them survives', async () => {
    const a = scrubbers();
    const o = await ws.run(bashTool, { command: `${a.command}\necho ready` });
    expect(survivors(tally, a.args, a.labels)).toEqual([]);
    expect(o.ok && o.output).toMatch(/^ready\n\(exit code 0\)\n\(\d+ background process\(es\) /);
    for (let i = 1; i <= 6; i++) rmSync(path.join(ws.root, `e${i}.ready`), { force: true });
    const b = scrubbers();
    const t = await ws.run(bashTool, { command: `${b.command}\nsleep 1000`, timeout: 3000 });
    expect(survivors(tally, b.args, b.labels)).toEqual([]);
    expect(t.ok && t.output).toBe('(timed out after 3000 ms; the command and its child processes were stopped)');
  });
});

/**
 * The escape the process scan alone cannot close (process-session.ts): a daemon that leaves the session, closes
 * every inherited descriptor (the run's tag among them), clears its environment (the marker) and whose parent is
 * gone before any scan — a process of the user like any other. In the command's own PID namespace the kernel ends
 * it with the namespace's init. Each variant also writes a ready file; counted as attempts / held.
 */
/** The daemon's own part: close every descriptor above 2 (the run's tag among them), say ready, become the sleeper. */
const DAEMON_SH = [
  'for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null',
  'echo 1 > "$1"',
  'exec sleep "$2"',
].join('\n');

function daemons(): { command: string; args: string[]; labels: string[] } {
  const args = Array.from({ length: 4 }, sleeperArg);
  const d = (k: number): string => `bash ./daemon.sh x${k}.ready ${args[k - 1]}`;
  const labels = [
    `setsid -f env -i ${d(1)} 3>&-`,
    `(setsid env -i ${d(2)} </dev/null >/dev/null 2>&1 3>&- &)`,
    `env -i setsid -f bash -c '(${d(3)}) & exit' 3>&-`,
    `setsid -f env -i nohup ${d(4)} >/dev/null 2>&1 3>&-`,
  ];
  const wait = `until ${labels.map((_, i) => `[ -s x${i + 1}.ready ]`).join(' && ')}; do :; done`;
  return { command: [...labels, wait].join('\n'), args, labels };
}

describe('bash ends a daemon that shed every tag, in the command’s own PID namespace (attempts / held)', () => {
  const tally = { attempts: 0, held: 0 };
  afterAll(() => console.log(`bash tag-shedding daemons: ${tally.attempts} attempts / ${tally.held} held`));

  it('on this Linux machine commands run in their own PID namespace (the probe passes)', () => {
    const ns = pidNamespace();
    expect([ns.active, ns.reason]).toEqual([true, ns.reason]);
  });

  it('at the normal end, none of them survives', async () => {
    await ws.put('daemon.sh', DAEMON_SH);
    for (let i = 0; i < 2; i++) {
      const d = daemons();
      const o = await ws.run(bashTool, { command: `${d.command}\necho ready` });
      expect(survivors(tally, d.args, d.labels)).toEqual([]);
      expect(o.ok && o.output).toMatch(/^ready\n\(exit code 0\)\n\(\d+ background process\(es\) /);
      for (let k = 1; k <= 4; k++) rmSync(path.join(ws.root, `x${k}.ready`), { force: true });
    }
  });
});
