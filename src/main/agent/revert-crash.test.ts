/**
 * A kill in the middle of a history move (issue 12 §3, hostile input): a real child process moves a session
 * between a turn that rewrote FILES files and before it — revert, unrevert, again and again — and is SIGKILLed at a
 * random moment (half the runs 0–2 ms after the first file changed: amid the renames and the bookkeeping after
 * them). The next AgentService.open recovers. Held when the disk holds one version of every file (all as before
 * the turn, or all as after it), no temp file is left, AND the session's revert record says the same as the disk
 * (reverted ⇔ the files are as before the turn) — then the next move (unrevert or revert) works with no
 * conflict. Every run starts from a copy of the same session (made once per mode, put back at the same paths).
 * Prints runs / held and the seed.
 */
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentService } from './service';
import { childArgs } from '../proc/test-child';
import { cleanupTemp, scripted, tempDir } from './testing/fixtures';

const FILES = 16;
const RUNS = Number(process.env.LANDFALL_CRASH_RUNS ?? 10);
const CHILD = fileURLToPath(new URL('./testing/revert-crash-child.ts', import.meta.url));
const names = Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
const BEFORE = `before ${'a'.repeat(20_000)}\n`;
const AFTER = `after ${'b'.repeat(20_000)}\n`;
const seed = Number(process.env.LANDFALL_CRASH_SEED ?? Date.now() % 100_000);
let rand = seed;
/** A deterministic generator from the printed seed (so a failing run can be repeated). */
const random = (): number => (rand = (Math.imul(rand, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const lines: string[] = [];
afterAll(() => console.log(`history-move crash (seed ${seed}): ${lines.join('; ')}`));

/** A session whose one turn rewrote every file from BEFORE to AFTER (read, then write, per file). */
async function sessionWithTurn(dataDir: string, root: string): Promise<{ sessionId: string; messageId: string }> {
  for (const n of names) writeFileSync(path.join(root, n), BEFORE);
  const opened = await AgentService.open({ dataDir });
  if (!opened.ok) throw new Error(opened.error.message);
  const svc = opened.value;
  try {
    const project = await svc.openProject(root);
    if (!project.ok) throw new Error(project.error.message);
    const s = svc.createSession(project.value.id);
    if (!s.ok) throw new Error(s.error.message);
    const calls = names.flatMap((n, i) => [
      { callId: `r${i}`, toolName: 'read', input: { filePath: n } },
      { callId: `w${i}`, toolName: 'write', input: { filePath: n, content: AFTER } },
    ]);
    const turn = await svc.runWithModel(s.value.id, scripted([calls]), 'rewrite every file');
    if (!turn.ok) throw new Error(turn.error.message);
    return { sessionId: s.value.id, messageId: turn.value.userMessageId };
  } finally {
    await svc.close();
  }
}

async function whenChanged(file: string, before: string, stop: () => boolean): Promise<void> {
  while (!stop()) {
    try {
      if (readFileSync(file, 'utf8') !== before) return;
    } catch {
      // between a removal and a rename: look again
    }
    await new Promise((r) => setImmediate(r));
  }
}

/** Start the child; SIGKILL it at a random point of the second move, or 0–2 ms after its first file changed. */
async function killSomewhere(
  dataDir: string,
  s: { sessionId: string; messageId: string },
  root: string,
  amid: boolean,
  mode: 'history' | 'review',
) {
  const child = spawn(process.execPath, await childArgs(CHILD, [dataDir, s.sessionId, s.messageId, mode]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise<void>((resolve, reject) => {
    let armed = false;
    child.stdout.on('data', (b: Buffer) => {
      const m = /done (\d+)/.exec(b.toString());
      if (!m || armed) return;
      armed = true;
      if (amid) {
        const first = path.join(root, names[0] as string);
        const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
        const wait = random() * 2;
        void whenChanged(first, readFileSync(first, 'utf8'), ended).then(() =>
          setTimeout(() => child.kill('SIGKILL'), wait),
        );
        return;
      }
      setTimeout(() => child.kill('SIGKILL'), Math.round(random() * 1.5 * Math.max(Number(m[1]), 5)));
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended by itself: ${err.slice(0, 800)}`)),
    );
  });
}

type Mode = 'history' | 'review';

/** The turn as review names it: by its assistant message (the first step's on the timeline). */
function turnOf(svc: AgentService, sessionId: string): { kind: 'turn'; messageId: string } {
  const step = svc.review.timeline(sessionId).find((e) => e.kind === 'step');
  if (!step?.messageId) throw new Error('the session has no step');
  return { kind: 'turn', messageId: step.messageId };
}

/** Whether the session's record says the turn is undone: reverted (history), or every hunk rejected (review). */
async function recordSaysBefore(svc: AgentService, mode: Mode, s: { sessionId: string; messageId: string }) {
  if (mode === 'history') {
    const detail = svc.getSession(s.sessionId);
    return detail.ok && detail.value.session.revert !== undefined;
  }
  const diff = await svc.review.diff(s.sessionId, turnOf(svc, s.sessionId));
  if (!diff.ok) throw new Error(diff.error.message);
  const states = new Set(diff.value.files.flatMap((f) => f.hunks.map((h) => h.state)));
  return states.size === 1 && states.has('rejected') ? true : states.has('rejected') ? 'mixed' : false;
}

/** The move back from where the record says we are: unrevert / revert, or undo the reject / reject. */
async function nextMove(svc: AgentService, mode: Mode, s: { sessionId: string; messageId: string }, before: boolean) {
  if (mode === 'history') {
    const r = before ? await svc.unrevert(s.sessionId) : await svc.revert(s.sessionId, s.messageId);
    return r.ok && r.value.conflicts.length === 0;
  }
  const target = turnOf(svc, s.sessionId);
  const r = before
    ? await svc.review.undo({ sessionId: s.sessionId })
    : await svc.review.decide({ sessionId: s.sessionId, target, action: 'reject' });
  return r.ok;
}

/** Puts folder `to` back as the copy `from` holds (a run starts from the same session every time). */
function putBack(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
}

async function killRuns(mode: Mode): Promise<void> {
  let held = 0;
  let nextMoves = 0;
  let settled = 0;
  const seen: Record<string, number> = {};
  // One session with its turn, kept as a copy: every run starts from it at the same paths (the database names
  // the project folder), so a run pays for the kill and the recovery, not for the turn again.
  const root = tempDir('crash-history');
  const dataDir = tempDir('crash-history-data');
  const kept = tempDir('crash-history-kept');
  const s = await sessionWithTurn(dataDir, root);
  cpSync(root, path.join(kept, 'root'), { recursive: true, preserveTimestamps: true });
  cpSync(dataDir, path.join(kept, 'data'), { recursive: true, preserveTimestamps: true });
  try {
    for (let run = 0; run < RUNS; run++) {
      putBack(path.join(kept, 'root'), root);
      putBack(path.join(kept, 'data'), dataDir);
      await killSomewhere(dataDir, s, root, run % 2 === 1, mode);
      const opened = await AgentService.open({ dataDir });
      if (!opened.ok) throw new Error(opened.error.message);
      const svc = opened.value;
      settled += svc.settledMoves.length;
      try {
        const versions = [...new Set(names.map((n) => readFileSync(path.join(root, n), 'utf8')))];
        const temps = readdirSync(root).filter((n) => n.includes('.landfall-'));
        const said = await recordSaysBefore(svc, mode, s);
        const disk = versions.length === 1 ? (versions[0] === BEFORE ? 'before' : 'after') : 'mixed';
        const key = `disk ${disk}/record ${said === 'mixed' ? 'mixed' : said ? 'before' : 'after'}`;
        seen[key] = (seen[key] ?? 0) + 1;
        const agrees = disk !== 'mixed' && said !== 'mixed' && temps.length === 0 && (disk === 'before') === said;
        // The next move from where the record stands must work and land every file on the other version.
        const ok = said !== 'mixed' && (await nextMove(svc, mode, s, said));
        const after = [...new Set(names.map((n) => readFileSync(path.join(root, n), 'utf8')))];
        const moved = ok && after.length === 1 && after[0] === (said ? AFTER : BEFORE);
        if (moved) nextMoves++;
        if (agrees && moved) held++;
        else console.log(`${mode} run ${run}: ${key}, temps ${temps.join(', ')}, next move ${moved ? 'ok' : 'failed'}`);
      } finally {
        await svc.close();
      }
    }
  } finally {
    cleanupTemp(root, dataDir, kept);
  }
  lines.push(
    `${mode}: ${RUNS} runs / ${held} held, next move worked ${nextMoves} / ${RUNS}, settled at start ${settled} (seen: ${JSON.stringify(seen)})`,
  );
  expect(held).toBe(RUNS);
}

describe('a kill during a history move or a review decision leaves the disk and the record agreeing (runs / held)', () => {
  it(
    `revert / unrevert of ${FILES} files, SIGKILL at random points, recovered by AgentService.open (${RUNS} runs)`,
    () => killRuns('history'),
    600_000,
  );

  it(
    `review reject / undo of ${FILES} files, SIGKILL at random points, recovered by AgentService.open (${RUNS} runs)`,
    () => killRuns('review'),
    600_000,
  );
});
