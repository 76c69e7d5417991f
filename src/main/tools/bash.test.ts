import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool, MAX_CAPTURE_BYTES, MAX_SHOWN_CHARS } from './bash';
import { makeWorkspace, type Workspace } from './tool-test-kit';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** Running (a killed process whose parent died may linger as a zombie until PID 1 reaps it: that is not alive). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return true;
  }
}

describe('bash', () => {
  it('runs in the project folder, merges stdout and stderr, reports the exit code', async () => {
    const o = await ws.run(bashTool, { command: 'pwd; echo err >&2; exit 3' });
    expect(o.ok && o.output).toBe(`${ws.root}\nerr\n(exit code 3)`);
    expect(o.ok && o.metadata.exitCode).toBe(3);
  });

  it('shortens long output and keeps the full text in a file under scratchDir', async () => {
    const o = await ws.run(bashTool, { command: 'seq 1 20000' });
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    const full = o.metadata.fullOutputPath as string;
    expect(path.dirname(full)).toBe(ws.ctx.scratchDir);
    const expected = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('');
    expect(readFileSync(full, 'utf8')).toBe(expected);
    expect(o.output.length).toBeLessThan(MAX_SHOWN_CHARS + 500);
    expect(o.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(o.output.endsWith('19999\n20000\n(exit code 0)')).toBe(true);
    expect(o.output).toContain(full);
  });

  it('on timeout the whole process group is stopped, grandchildren included', async () => {
    const o = await ws.run(bashTool, { command: 'sleep 30 & echo $! > child.pid; sleep 30', timeout: 300 });
    expect(o.ok && o.output).toBe('(timed out after 300 ms; the command and its child processes were stopped)');
    const pid = Number(readFileSync(path.join(ws.root, 'child.pid'), 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
  });

  it('on abort: SIGTERM then SIGKILL for a group that ignores SIGTERM; the call fails as interrupted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    const o = await ws.run(
      bashTool,
      { command: "trap '' TERM; echo started; sleep 30 & echo $! > child.pid; wait" },
      { signal: controller.signal },
    );
    expect(!o.ok && o.error.code).toBe('interrupted');
    expect(!o.ok && o.error.message).toContain('started');
    expect(Date.now() - started).toBeLessThan(6000);
    const pid = Number(readFileSync(path.join(ws.root, 'child.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
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
 * grandchild calls setsid and is re-parented to init, and a plain background job. Each records its own pid; the
 * command waits until all four exist. After the tool returns, each is checked in /proc.
 */
const LEAVERS = [
  `setsid sh -c 'echo $$ > s.pid; exec sleep 1000' &`,
  `nohup sh -c 'echo $$ > n.pid; exec sleep 1000' > /dev/null 2>&1 &`,
  `sh -c '(setsid sh -c "echo \\$\\$ > d.pid; exec sleep 1000" &)' &`,
  `sh -c 'echo $$ > b.pid; exec sleep 1000' &`,
  'until [ -s s.pid ] && [ -s n.pid ] && [ -s d.pid ] && [ -s b.pid ]; do :; done',
].join('\n');
const PID_FILES = ['s.pid', 'n.pid', 'd.pid', 'b.pid'];

async function whenExists(files: string[]): Promise<void> {
  while (!files.every((f) => existsSync(path.join(ws.root, f)) && readFileSync(path.join(ws.root, f), 'utf8') !== ''))
    await new Promise((r) => setTimeout(r, 10));
}

describe('bash ends every process a command started (attempts / held)', () => {
  const tally = { attempts: 0, held: 0 };
  afterAll(() => console.log(`bash session processes: ${tally.attempts} attempts / ${tally.held} held`));

  /** Each recorded pid is gone (a zombie is gone); counts into the tally. */
  function checkGone(): void {
    for (const f of PID_FILES) {
      const pid = Number(readFileSync(path.join(ws.root, f), 'utf8'));
      tally.attempts++;
      if (!alive(pid)) tally.held++;
      expect(alive(pid), `${f} (${pid}) still runs`).toBe(false);
    }
  }

  it('at the normal end: setsid, nohup, double-fork and background children are ended, and the output says so', async () => {
    for (let i = 0; i < 3; i++) {
      for (const f of PID_FILES) rmSync(path.join(ws.root, f), { force: true });
      const o = await ws.run(bashTool, { command: `${LEAVERS}\necho ready` });
      expect(o.ok && o.output).toMatch(
        /^ready\n\(exit code 0\)\n\(\d+ background process\(es\) the command left running were stopped/,
      );
      checkGone();
    }
  });

  it('at a timeout: none of them survives', async () => {
    const o = await ws.run(bashTool, { command: `${LEAVERS}\nsleep 1000`, timeout: 1500 });
    expect(o.ok && o.output).toBe('(timed out after 1500 ms; the command and its child processes were stopped)');
    checkGone();
  });

  it('at a stop (abort): none of them survives', async () => {
    const controller = new AbortController();
    const running = ws.run(bashTool, { command: `${LEAVERS}\nsleep 1000` }, { signal: controller.signal });
    await whenExists(PID_FILES);
    controller.abort();
    const o = await running;
    expect(!o.ok && o.error.code).toBe('interrupted');
    checkGone();
  });
});

/**
 * Children that leave the session AND scrub their environment (hostile review: `setsid -f env -i sleep …`, `env -i
 * setsid -f …`, `setsid -f env -u LANDFALL_BASH_RUN …`, `setsid -f env -i bash -c "sleep … & exit"` survived, since
 * only the environment marker found them). Each writes its own pid from a shell with the scrubbed environment.
 */
const SCRUBBERS = [
  `setsid -f env -i sh -c 'echo $$ > e1.pid; exec sleep 1000'`,
  `env -i setsid -f sh -c 'echo $$ > e2.pid; exec sleep 1000'`,
  `setsid -f env -u LANDFALL_BASH_RUN sh -c 'echo $$ > e3.pid; exec sleep 1000'`,
  `setsid -f env -i bash -c "sh -c 'echo \\$\\$ > e4.pid; exec sleep 1000' & exit"`,
  `setsid -f env -i nohup sh -c 'echo $$ > e5.pid; exec sleep 1000' > /dev/null 2>&1`,
  `env -i setsid -f bash -c "(setsid sh -c 'echo \\$\\$ > e6.pid; exec sleep 1000' &); exit"`,
];
const SCRUB_PIDS = SCRUBBERS.map((_, i) => `e${i + 1}.pid`);
const SCRUB_COMMAND = [...SCRUBBERS, `until ${SCRUB_PIDS.map((f) => `[ -s ${f} ]`).join(' && ')}; do :; done`].join(
  '\n',
);

describe('bash ends children that scrubbed their environment (attempts / held)', () => {
  const tally = { attempts: 0, held: 0 };
  afterAll(() => console.log(`bash scrubbed-env children: ${tally.attempts} attempts / ${tally.held} held`));

  function checkGone(): void {
    const survivors: string[] = [];
    for (const [i, f] of SCRUB_PIDS.entries()) {
      const pid = Number(readFileSync(path.join(ws.root, f), 'utf8'));
      tally.attempts++;
      if (!alive(pid)) tally.held++;
      else {
        survivors.push(SCRUBBERS[i] ?? f);
        process.kill(pid, 'SIGKILL'); // a failing run must not leave sleepers behind
      }
    }
    expect(survivors).toEqual([]);
  }

  it('at the normal end and at a timeout, none of them survives', async () => {
    const o = await ws.run(bashTool, { command: `${SCRUB_COMMAND}\necho ready` });
    checkGone();
    expect(o.ok && o.output).toMatch(/^ready\n\(exit code 0\)\n\(\d+ background process\(es\) /);
    for (const f of SCRUB_PIDS) rmSync(path.join(ws.root, f), { force: true });
    const t = await ws.run(bashTool, { command: `${SCRUB_COMMAND}\nsleep 1000`, timeout: 3000 });
    checkGone();
    expect(t.ok && t.output).toBe('(timed out after 3000 ms; the command and its child processes were stopped)');
  });
});
