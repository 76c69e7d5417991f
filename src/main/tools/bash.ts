/**
 * The bash tool: runs a command with `bash -c` in the project folder, as the leader of its OWN session and process
 * group (detached) with its run's file as an inherited descriptor and a marker in its environment, so every
 * process it started can be found — also those that called setsid() or were re-parented (process-session.ts).
 * Where the system allows it the command also runs in its own PID namespace with a fresh /proc
 * (proc/pid-namespace.ts): it sees only its own processes — never Landfall's, its ancestors' or any other
 * process's start-up environment in /proc — and when it ends the kernel ends everything it left in there.
 * On abort or timeout they all get SIGTERM, then SIGKILL after a grace period; at the command's normal end
 * whatever it left running (background jobs) is ended and the status line says so. stdout and stderr are merged
 * in arrival order. The whole output (and the status line) is the outcome; what the model sees of a long one is
 * decided by the one cap every tool output goes through (src/main/agent/context/tool-output.ts: head + tail by
 * lines, the whole output saved to a file). Output past 16 MB stops the command (as a timeout does), so a runaway
 * `yes` cannot fill the app's memory. A non-zero exit is a normal outcome (the model reads the code); only an
 * abort is a failure. Isolated, a command ended by a signal reports exit code 128+n (as a shell does), since
 * the namespace's init passes on the status it saw. Unless the user allowed the line through a `git_dir` question,
 * git's configuration and hooks come out of the command exactly as they went in (git-sweep.ts), and the output says
 * what was put back.
 */
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { childEnv } from '../proc/child-env';
import { spawnIsolated, type InitReport } from '../proc/pid-namespace';
import { failed } from './file-access';
import {
  commandProcesses,
  createRunTag,
  endCommand,
  releaseRunTag,
  runMarkerEnv,
  type RunTag,
} from './process-session';
import type { PermissionAnswer, ToolContext, ToolDefinition, ToolOutcome } from './types';
import { watchGitPlaces, type GuardSweep } from './git-sweep';
import { toolProse } from './prose';

export const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** Output kept from one command (bytes). Past it the command is stopped: `yes` or `cat /dev/urandom` would
 * otherwise fill the app's memory until the timeout. */
export const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;
const KILL_GRACE_MS = 2_000;
/** Longest wait (ms) for the namespace's set-up to say the command started before its timeout counts anyway. */
const SETUP_CAP_MS = 30_000;

const bashInput = z.object({
  command: z.string().min(1).describe('The command to run with bash in the project folder.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(`Milliseconds before the command is stopped (default ${DEFAULT_TIMEOUT_MS}).`),
  description: z.string().optional().describe('Five to ten words saying what the command does.'),
});
export type BashInput = z.infer<typeof bashInput>;

interface Run {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The output passed MAX_CAPTURE_BYTES and the command was stopped. */
  capped: boolean;
  /** Processes the command left running at its normal end (background jobs, setsid children), now ended. */
  background: number;
}

/**
 * `spawn` with this run's tags: its file as the child's descriptor 3 and its marker in the environment
 * (process-session.ts finds the run's processes by them), in its own PID namespace where the system allows it
 * (proc/pid-namespace.ts). Landfall's own descriptor is released once spawned.
 */
function spawnTagged(
  tag: RunTag,
  file: string,
  args: string[],
  options: { cwd: string; detached: boolean; env: Record<string, string> },
): {
  child: ChildProcessByStdio<null, Readable, Readable>;
  isolated: boolean;
  report: Promise<InitReport | undefined>;
  started: Promise<void>;
} {
  try {
    const stdio: ['ignore', 'pipe', 'pipe', number | 'ignore'] = [
      'ignore',
      'pipe',
      'pipe',
      tag.fd >= 0 ? tag.fd : 'ignore',
    ];
    const spawned = spawnIsolated(file, args, { ...options, stdio, env: { ...options.env, ...runMarkerEnv(tag) } });
    return {
      child: spawned.child as unknown as ChildProcessByStdio<null, Readable, Readable>,
      isolated: spawned.isolated,
      report: spawned.report,
      started: spawned.started,
    };
  } finally {
    releaseRunTag(tag);
  }
}

function runCommand(command: string, cwd: string, timeoutMs: number, signal?: AbortSignal): Promise<Run> {
  return new Promise((resolve) => {
    const run = createRunTag();
    const { child, isolated, report, started } = spawnTagged(run, 'bash', ['-c', command], {
      cwd,
      detached: true,
      env: childEnv(),
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let capped = false;
    let timedOut = false;
    let aborted = false;
    let graceOver: () => void = () => undefined;
    const grace = new Promise<void>((r) => (graceOver = r));
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (child.pid === undefined) return;
      const pid = child.pid;
      void endCommand(pid, run, 'SIGTERM');
      killTimer ??= setTimeout(() => {
        graceOver();
        void endCommand(pid, run, 'SIGKILL');
      }, KILL_GRACE_MS);
    };
    // The timeout counts from the command's start: the namespace's set-up (root's hardening: dozens of mount
    // calls, seconds on a loaded machine) is not the command's time. A set-up that never says it is done starts
    // the clock after SETUP_CAP_MS anyway.
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const startClock = (): void => {
      if (ended || timer) return;
      timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, timeoutMs);
    };
    const setupCap = setTimeout(startClock, SETUP_CAP_MS);
    void started.then(() => {
      clearTimeout(setupCap);
      startClock();
    });
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (d: Buffer): void => {
      if (capped) return;
      const room = MAX_CAPTURE_BYTES - kept;
      chunks.push(d.length <= room ? d : d.subarray(0, room));
      kept += Math.min(d.length, room);
      if (d.length > room) {
        capped = true;
        stop();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let exit: { code: number | null; sig: NodeJS.Signals | null } | undefined;
    let background = 0;
    // Every process the command started ends with it: at a normal end at once (background jobs, setsid children),
    // after a stop once the grace period is over for those still running (process-session.ts).
    const reap = async (): Promise<void> => {
      const pid = child.pid;
      if (pid === undefined) return;
      const stopping = killTimer !== undefined;
      // Isolated and ended by itself: its namespace is gone with its init, and the kernel ended every process left
      // in it before `unshare` could exit (process-session.ts) — the init's report counts them; no scan of /proc
      // is needed (one costs tens of milliseconds: every process's descriptors are listed).
      const told = isolated && !stopping ? await report : undefined;
      if (told) {
        background = told.left;
        return;
      }
      // Stopped: those still running get the rest of the grace period to end on SIGTERM, then SIGKILL.
      let over = false;
      void grace.then(() => (over = true));
      while (stopping && !over && commandProcesses(pid, run).length > 0) await new Promise((r) => setTimeout(r, 20));
      const n = await endCommand(pid, run, 'SIGKILL');
      // Isolated, the namespace's init counted what the command left running before the kernel ended it.
      if (!stopping) background = Math.max(n, (await report)?.left ?? 0);
    };
    let reaped: Promise<void> = Promise.resolve();
    const finish = async (): Promise<void> => {
      ended = true;
      clearTimeout(setupCap);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      await reaped;
      if (killTimer) clearTimeout(killTimer);
      const e = exit ?? { code: null, sig: null };
      resolve({
        output: Buffer.concat(chunks).toString('utf8'),
        exitCode: e.code,
        signal: e.sig,
        timedOut,
        aborted,
        capped,
        background,
      });
    };
    child.on('error', (err) => {
      chunks.push(Buffer.from(`\n${err.message}\n`));
      void finish();
    });
    child.on('exit', (code, sig) => {
      exit = { code, sig };
      reaped = reap();
      // Background children may keep the pipes open: do not wait for them beyond a short drain.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 500).unref();
    });
    child.on('close', () => void finish());
  });
}

/** The last line of the output: why the command ended. */
function statusLine(run: Run, timeoutMs: number): string {
  const stopped = 'the command and its child processes were stopped';
  if (run.capped) return `(stopped: the output passed ${MAX_CAPTURE_BYTES / (1024 * 1024)} MB; ${stopped})`;
  if (run.timedOut) return `(timed out after ${timeoutMs} ms; ${stopped})`;
  const ended = run.exitCode === null ? `(terminated by ${run.signal ?? 'a signal'})` : `(exit code ${run.exitCode})`;
  return run.background === 0
    ? ended
    : `${ended}\n(${run.background} background process(es) the command left running were stopped: a command's processes end with it)`;
}

/** What the output says about a sweep (git-sweep.ts): '' when nothing changed. */
function sweepNote(sweep: GuardSweep & { skipped?: string }): string {
  const lines: string[] = [];
  if (sweep.restored.length > 0)
    lines.push(
      `(Landfall undid this command's changes to git configuration or hooks, which run programs on the user's next git command and need the user's permission: ${sweep.restored.join(', ')}. To change them, run a command that names the file or uses \`git config\`, so the user is asked.)`,
    );
  if (sweep.unrestored.length > 0)
    lines.push(
      `(This command changed git configuration or hooks that Landfall could not put back: ${sweep.unrestored.join('; ')}. Tell the user.)`,
    );
  return lines.length > 0 ? `\n${lines.join('\n')}` : '';
}

async function executeBash(input: BashInput, ctx: ToolContext): Promise<ToolOutcome> {
  let answer: PermissionAnswer | undefined;
  if (ctx.ask) {
    answer = await ctx.ask({
      tool: 'bash',
      permission: 'bash',
      patterns: [input.command],
      title: input.description ?? input.command,
    });
    if (!answer.allow) {
      return failed(
        fail(
          'permission_denied',
          `The user did not allow: ${input.command}`,
          answer.reason ? `The user said: ${answer.reason}` : 'Ask the user how to proceed.',
        ).error,
      );
    }
  }
  // Without a git_dir question answered yes, git's configuration and hooks come out of the command as they went
  // in, however it named them (git-sweep.ts).
  const watch = ctx.ask && !(answer?.allow && answer.gitDir) ? await watchGitPlaces(ctx.root) : undefined;
  const timeout = input.timeout ?? DEFAULT_TIMEOUT_MS;
  const run = await runCommand(input.command, ctx.root, timeout, ctx.signal);
  const swept = watch ? sweepNote(await watch.end()) : '';
  if (run.aborted) {
    const stopped = failed(
      fail('interrupted', 'The command was stopped by the user.', 'Ask the user before running it again.').error,
    );
    return { ...stopped, output: `${stopped.output}\nOutput so far:\n${run.output}${swept}` };
  }
  const status = statusLine(run, timeout);
  const output = `${run.output}${run.output.endsWith('\n') || run.output === '' ? '' : '\n'}${status}${swept}`;
  return {
    ok: true,
    title: input.description ?? input.command,
    output,
    metadata: {
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut: run.timedOut,
      outputCapped: run.capped,
      chars: run.output.length,
    },
  };
}

export const bashTool: ToolDefinition<BashInput> = {
  name: 'bash',
  description: toolProse(new URL('./bash.md', import.meta.url)),
  input: bashInput,
  execute: executeBash,
};
