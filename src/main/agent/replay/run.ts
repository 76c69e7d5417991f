/**
 * The one replay driver: plays a recorded corpus session through the real loop with the replay provider as the
 * model — for the app (attended: someone watches and answers the permission questions; the recording's words are
 * streamed at a reading pace, and as the first-run tour its `ask` marks put their question once each) and for the command line,
 * the tests and the benchmark (unattended: every question is answered "reject" at once, never left waiting).
 *
 * Before anything runs: the recording is read (corpus.ts) and planned (plan.ts), the project is seeded from its
 * base files (seed.ts: missing files written, files already holding the base bytes left alone, a file holding
 * anything else refuses the replay — `exists`, nothing written — unless `force` backs it up first), and the first
 * turn is admitted. `startReplay` then answers with the first turn's handle; the later turns start one after the
 * other as each ends, and `done` settles with the report: every call's Landfall outcome next to the recorded
 * one, and the project's diff from before the first turn. A stop (aborted turn) ends the replay.
 *
 * The driver reaches the service through `ReplayTurns` (the few methods it needs), so it does not import the
 * service that calls it.
 */
import path from 'node:path';
import { REPLAY_LOOP_LIMITS } from '../loop-guard';
import type { SessionDetail } from '../../../shared/contract-schemas';
import { fail, isFailure, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { Part } from '../../../shared/model';
import type { SnapshotPort } from '../../session/snapshot-port';
import { ReplayModel } from '../providers/replay';
import type {
  ReplayCallOutcome,
  ReplayHandle,
  ReplayOptions,
  ReplayReport,
  TurnHandle,
  TurnOptions,
} from '../service-types';
import { loadCorpusSession, type CorpusSession } from './corpus';
import { planReplay, type ReplayPlan } from './plan';
import { seedSafely, type SeedReport } from './seed';
import type { AskMark } from '../permission/gate';

/** Pause between streamed words of an attended replay's recorded text (ms): reads as a model typing. */
export const REPLAY_PACE_MS = 35;

/** What the driver needs from the service (AgentService passes itself). */
export interface ReplayTurns {
  startTurn(sessionId: string, text: string, options: TurnOptions): Promise<Result<{ turn: TurnHandle }>>;
  setUnattended(sessionId: string, unattended: boolean): void;
  /** Ask where the recording marks it (attended only; permission/gate.ts). */
  setAskMarks(sessionId: string, marks: readonly AskMark[] | null): void;
  isBusy(sessionId: string): boolean;
  getSession(sessionId: string): Result<SessionDetail>;
}

/** Where the replay plays: the session, its project's real root and snapshot store, and the app's data folder. */
export interface ReplayTarget {
  sessionId: string;
  root: string;
  snapshot: Pick<SnapshotPort, 'track' | 'diff'>;
  dataDir: string;
}

/** In-process hooks (not part of the JSON contract): tests and the benchmark look at the project between turns. */
export interface ReplayHooks {
  /** Called before turn `index` (0-based) starts, after the previous one ended. */
  beforeTurn?: (index: number) => Promise<void> | void;
  /** apply_patch's input field holding the patch text (default `patchText`). */
  patchField?: string;
  /** The hint of the `exists` refusal (the command line names its --no-seed and --force flags). */
  seedRefusalHint?: string;
  /**
   * Pause between streamed words of an attended replay (ms; default REPLAY_PACE_MS). Tests pass 1: still a word at
   * a time, without 35 ms of waiting per word.
   */
  paceMs?: number;
}

/** A replay read, planned and seeded, ready for its first turn. */
interface Prepared {
  corpus: CorpusSession;
  plan: ReplayPlan;
  model: ReplayModel;
  seed: SeedReport | undefined;
  start: string;
}

function outcomeOf(part: Extract<Part, { type: 'tool' }> | undefined): { landfall: string; rung?: string } {
  if (!part) return { landfall: 'not_run' };
  if (part.state === 'completed') {
    const rung = part.metadata?.rung;
    return typeof rung === 'string' ? { landfall: 'ok', rung } : { landfall: 'ok' };
  }
  return { landfall: part.error?.code ?? part.state };
}

/** The user message of turn `i`: the first turn's own text when there is one, else the turn's place. */
function turnText(p: Prepared, i: number, options: ReplayOptions): string {
  const first = options.text ?? (options.attended ? p.corpus.prompt : undefined);
  if (i === 0 && first) return first;
  const total = p.plan.turns.length;
  if (options.attended) return `Continue the recorded session ${p.corpus.id} (turn ${i + 1} of ${total}).`;
  const turn = p.plan.turns[i] ?? [];
  return `Replay turn ${i + 1} of ${total} of ${p.corpus.id}: calls ${turn[0]?.seq}–${turn[turn.length - 1]?.seq}.`;
}

/** Read, plan and seed (module docstring). Errors: the corpus reader's, `invalid_input` (attended, nothing to play), seeding's. */
async function prepare(
  target: ReplayTarget,
  dir: string,
  options: ReplayOptions,
  hooks: ReplayHooks,
): Promise<Result<Prepared>> {
  const corpus = await loadCorpusSession(dir);
  if (!corpus.ok) return corpus;
  const plan = planReplay(
    corpus.value.calls,
    options.mode,
    new Set(corpus.value.files.map((f) => f.path)),
    hooks.patchField,
  );
  if (options.attended && plan.turns.length === 0)
    return fail(
      'invalid_input',
      `${dir} holds no call that can be replayed.`,
      'Pick a recording with read, edit or write calls.',
    );
  let seed: SeedReport | undefined;
  if (options.seed !== false) {
    const seeded = await seedSafely(target.root, corpus.value.files, {
      force: options.force === true,
      backupRoot: path.join(target.dataDir, 'replay-backups'),
      journalDir: path.join(target.dataDir, 'journal'),
      ...(hooks.seedRefusalHint ? { refusalHint: hooks.seedRefusalHint } : {}),
    });
    if (!seeded.ok) return seeded;
    seed = seeded.value;
  }
  const model = new ReplayModel(plan, `replay:${corpus.value.id}`, {
    ...(corpus.value.replies ? { replies: corpus.value.replies } : {}),
    paceMs: options.attended ? (hooks.paceMs ?? REPLAY_PACE_MS) : 0,
  });
  return ok({ corpus: corpus.value, plan, model, seed, start: await target.snapshot.track() });
}

/** Start turn `i` of the plan (after the hook). */
async function startAt(
  turns: ReplayTurns,
  target: ReplayTarget,
  p: Prepared,
  i: number,
  options: ReplayOptions,
  hooks: ReplayHooks,
): Promise<Result<{ turn: TurnHandle }>> {
  await hooks.beforeTurn?.(i);
  const calls = p.plan.turns[i]?.length ?? 0;
  return turns.startTurn(target.sessionId, turnText(p, i, options), {
    languageModel: p.model,
    maxSteps: calls + 2,
    limits: REPLAY_LOOP_LIMITS,
    holdQueue: true,
  });
}

/** Every planned call's outcome in the session as it is now, in recorded order (synthetic reads first). */
function report(
  turns: ReplayTurns,
  target: ReplayTarget,
  p: Prepared,
  userMessageIds: string[],
  finalDiff: string,
): ReplayReport {
  const parts = new Map<string, Extract<Part, { type: 'tool' }>>();
  const view = turns.getSession(target.sessionId);
  if (view.ok)
    for (const m of view.value.messages)
      for (const part of m.parts) if (part.type === 'tool') parts.set(part.callId, part);
  const calls: ReplayCallOutcome[] = p.plan.turns.flat().map((c) => ({
    seq: c.seq,
    tool: c.toolName,
    path: c.path,
    recorded: c.recorded,
    ...outcomeOf(parts.get(c.callId)),
    ...(c.synthetic ? { synthetic: true } : {}),
  }));
  for (const n of p.plan.notReplayed)
    calls.push({ seq: n.seq, tool: n.tool, recorded: n.recorded, landfall: 'skipped' });
  calls.sort((a, b) => a.seq - b.seq || Number(b.synthetic ?? false) - Number(a.synthetic ?? false));
  return { sessionId: target.sessionId, calls, finalDiff, userMessageIds, ...(p.seed ? { seed: p.seed } : {}) };
}

/** Waits for each turn, starts the next, and builds the report (the module docstring's "then"). */
async function playOn(
  turns: ReplayTurns,
  target: ReplayTarget,
  p: Prepared,
  first: TurnHandle | undefined,
  options: ReplayOptions,
  hooks: ReplayHooks,
): Promise<Result<ReplayReport>> {
  const userMessageIds: string[] = [];
  let current = first;
  for (let i = 1; current; i++) {
    const ended = await current.done;
    userMessageIds.push(ended.userMessageId);
    if (ended.finishReason === 'aborted' || (options.attended && ended.finishReason === 'error')) break;
    if (i >= p.plan.turns.length) break;
    const next = await startAt(turns, target, p, i, options, hooks);
    if (!next.ok) return next;
    current = next.value.turn;
  }
  return ok(report(turns, target, p, userMessageIds, await target.snapshot.diff(p.start)));
}

/** A failure thrown where a Result was expected: its own error, else `internal` (a bug). */
function asFailure(e: unknown): Result<never> {
  if (isFailure(e)) return e.toFail();
  return fail(
    'internal',
    `The replay failed: ${(e as Error).message}`,
    'This is a bug; the session is stored as far as it got.',
  );
}

/**
 * Start replaying the recording in `dir` into `target` (module docstring). Answers once the first turn is
 * admitted (at once when there is no turn to play, unattended). Errors: `busy`; `file_not_found` /
 * `invalid_input` for a bad recording; `invalid_input`, `outside_root` or `exists` (data.files) from seeding;
 * the first turn's failure to start. `done` never rejects; a later turn's failure to start is its failure.
 */
export async function startReplay(
  turns: ReplayTurns,
  target: ReplayTarget,
  dir: string,
  options: ReplayOptions,
  hooks: ReplayHooks = {},
): Promise<Result<ReplayHandle>> {
  const { sessionId } = target;
  if (turns.isBusy(sessionId))
    return fail('busy', 'The session is already running a turn.', 'Wait for it to end or stop it, then replay.');
  let prepared: Result<Prepared>;
  try {
    prepared = await prepare(target, dir, options, hooks);
  } catch (e) {
    return asFailure(e);
  }
  if (!prepared.ok) return prepared;
  const p = prepared.value;
  if (!options.attended) turns.setUnattended(sessionId, true);
  else if (options.tour && p.corpus.ask) turns.setAskMarks(sessionId, p.corpus.ask);
  const quiet = (): void => {
    if (!options.attended) turns.setUnattended(sessionId, false);
    else turns.setAskMarks(sessionId, null);
  };
  const first =
    p.plan.turns.length > 0 ? await startAt(turns, target, p, 0, options, hooks).catch(asFailure) : undefined;
  if (first && !first.ok) {
    quiet();
    return first;
  }
  const done = playOn(turns, target, p, first?.value.turn, options, hooks).catch(asFailure).finally(quiet);
  return ok({ first: first?.value.turn, done });
}
