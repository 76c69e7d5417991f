/**
 * The agent loop (DESIGN §6): one turn = steps until the model stops calling tools, the user stops, an error, or
 * the step limit. Each step:
 *   track() → step-start{snapshot} → model stream (deltas as events) → tool calls (permission gate) →
 *   track() → step-finish{snapshot} → patch{hash: tree before the step, files} when files changed.
 *
 * Which files a patch part claims (fixtures/bugs/README.md B36, B37): only files this step's tools reported
 * writing; when a tool ran that can change files without reporting them (bash), every file the snapshots show
 * changed in the step, minus files another session's tools wrote meanwhile (ProjectWrites). So a revert touches
 * only what this session's steps changed, and never deletes a file no agent tool wrote. Both come from the tree
 * diff of the step's before and after snapshots (`changed`), never from reading files or walking the tree again.
 *
 * Each step's model, tools, system prompt and mode are chosen when the step starts (`prepareStep`), so a switch of
 * mode or model takes effect at the next step, never in the middle of one; the step-start part records them.
 * The turn's loop guard (loop-guard.ts) judges every tool call. The last step allowed by `maxSteps` keeps the
 * tool list in the request (the prefix stays byte-identical, so provider caches hit) but sets tool choice to
 * `none` and ends the request with a reminder to sum up; a tool call sent there anyway is refused.
 */
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { LandfallError } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import type { StepError, StepUsage } from '../../shared/model';
import type { SessionStore } from '../session/store';
import type { SnapshotPort } from '../session/snapshot-port';
import { newId } from '../session/ids';
import type { ToolContext, ToolDefinition } from '../tools/types';
import type { PermissionGate } from './permission/gate';
import { DEFAULT_LOOP_LIMITS, LoopGuard } from './loop-guard';
import { repeatedCall, storeLoopStop } from './loop-decision';
import type { LoopLimits } from './loop-guard';
import { z } from 'zod';
import { CompactionGuard, type StepRequest } from './context/compaction-rules';
import { estimateTokens } from './context/tokens';
import { windowFor, type WindowSpec } from './context/windows';
import { streamStep } from './stream-step';
import { runTools } from './tool-runner';
import type { RunToolsResult } from './tool-runner';
import type { RetryPolicy } from './retry';
import type { TurnResult } from './service-types';
import type { TurnContext } from './context/turn-context';

/** Files written by tools per project, with the session that wrote them and when (ms). */
export class ProjectWrites {
  private readonly log: { sessionId: string; file: string; time: number }[] = [];
  /** Remember that `sessionId`'s tools wrote `files`. */
  add(sessionId: string, files: string[]): void {
    const now = Date.now();
    for (const file of files) this.log.push({ sessionId, file, time: now });
    if (this.log.length > 10_000) this.log.splice(0, this.log.length - 10_000);
  }
  /** Files other sessions wrote since `since` (ms). */
  othersSince(sessionId: string, since: number): Set<string> {
    return new Set(this.log.filter((w) => w.sessionId !== sessionId && w.time >= since).map((w) => w.file));
  }
}

export interface TurnInput {
  store: SessionStore;
  snapshot: SnapshotPort;
  gate: PermissionGate;
  model: LanguageModel;
  tools: ToolDefinition[];
  sdkTools: ToolSet;
  ctx: Omit<ToolContext, 'ask' | 'signal'>;
  writes: ProjectWrites;
  system?: string;
  /** The conversation layer (context/turn-context.ts): system + baseline, change notices, the request ledger. */
  context?: TurnContext;
  signal: AbortSignal;
  emit: (e: CoreEvent) => void;
  maxSteps: number;
  retry?: RetryPolicy;
  /** True while another session of the same project runs a turn (then every step walks the tree afresh). */
  othersActive?: () => boolean;
  /**
   * Called after every step with Landfall's own time (ms) spent outside model and tools, and the part of it
   * spent in the snapshot store (benchmark).
   */
  onStepOverhead?: (ms: number, detail: { snapshotMs: number }) => void;
  /** The turn's loop rules (loop-guard.ts); defaults DEFAULT_LOOP_LIMITS. */
  limits?: LoopLimits;
  /** Chooses the next step's model, tools, system prompt and mode (read at every step start); default: the above. */
  prepareStep?: (base: StepBase) => StepSetup | Promise<StepSetup>;
  /**
   * Called at every boundary between two steps: promotes the user's "send now" messages into the history
   * (session/inbox.ts) and answers true when it did — the next steps then answer in a new assistant message,
   * after them.
   */
  steer?: () => boolean;
  /**
   * The model's window (context/windows.ts; default: the catalog's value for the model id), the model that
   * writes compaction summaries (default: `model`) and its window (compaction-model.ts).
   */
  window?: { spec?: WindowSpec; summaryModel?: LanguageModel; summarySpec?: WindowSpec };
  /**
   * State re-sent right after a compaction's summary instead of being left to its prose (turns.ts: the todo list,
   * todo-resend.ts). The instructions in force go into the rebuilt system text instead (TurnContext.systemFor).
   */
  afterSummary?: () => ModelMessage[];
}

/** Estimated tokens of the tool definitions as sent (name, description, JSON schema of the input). */
export function toolTokens(tools: ToolDefinition[]): number {
  return estimateTokens(
    JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, input: z.toJSONSchema(t.input) }))),
  );
}

/**
 * A replay (providers/replay.ts) plays recorded answers in order: a summary request would take one of them, so a
 * replayed turn never compacts (its window counts as unbounded) unless the caller names a window.
 */
const REPLAY_SPEC: WindowSpec = { window: Number.MAX_SAFE_INTEGER, outputReserve: 0, source: 'settings' };

function guardFor(input: TurnInput): CompactionGuard {
  const context = input.context;
  const id = typeof input.model === 'string' ? input.model : input.model.modelId;
  const replay = typeof input.model !== 'string' && input.model.provider === 'landfall-replay';
  return new CompactionGuard({
    store: input.store,
    sessionId: input.ctx.sessionId,
    model: input.model,
    summaryModel: input.window?.summaryModel,
    summarySpec: input.window?.summarySpec,
    system: input.context?.system ?? input.system,
    toolTokens: toolTokens(input.tools),
    notices: () => input.context?.notices(),
    afterSummary: input.afterSummary,
    systemFor: context ? (folded) => context.systemFor(folded.map((u) => u.id)) : undefined,
    spec: input.window?.spec ?? (replay ? REPLAY_SPEC : windowFor(id)),
    signal: input.signal,
  });
}

/**
 * What a turn offers before a mode narrows it: its tools (built-in and MCP, fixed for the turn) and its system
 * prompt (with the session's baseline when the conversation context is on).
 */
export interface StepBase {
  tools: ToolDefinition[];
  system?: string;
}

/** What one step sends and with which rules; see `TurnInput.prepareStep`. */
export interface StepSetup {
  model: LanguageModel;
  /** `provider/model`, recorded on the step-start part. */
  modelLabel?: string;
  mode?: string;
  tools: ToolDefinition[];
  sdkTools: ToolSet;
  system?: string;
  /** The permission side for this step (a mode may ask where the rules would allow, agent/modes.ts). */
  gate?: Pick<PermissionGate, 'askFor' | 'guardFor'>;
}

/** The reminder that ends the last step's request (no tool call allowed there). */
export const LAST_STEP_REMINDER =
  'This is the last step of this turn: the step limit is reached and no tool call is allowed now. Reply in text only: sum up what is done, what is left, and what the user should decide or do next.';

/**
 * Files the step changed that it may claim (module docstring), from the tree diff of its before and after trees
 * (`changed`: tree entries compared, no blob read, no second walk of the work tree). A reported write claims its
 * file when the file's bytes differ between the trees (present on one side only, or another blob id — the blob id
 * is the hash of the bytes, so a change of the executable bit alone claims nothing); in the tools' order.
 */
async function claimedFiles(
  input: TurnInput,
  before: string,
  after: string,
  stepStarted: number,
  run: RunToolsResult,
): Promise<string[]> {
  const changes = await input.snapshot.changed(before, after);
  if (run.opaque) {
    const others = input.writes.othersSince(input.ctx.sessionId, stepStarted);
    return changes.map((c) => c.path).filter((f) => !others.has(f));
  }
  const byPath = new Map(changes.map((c) => [c.path, c]));
  return [...new Set(run.written)].filter((f) => {
    const c = byPath.get(f.replace(/^\.\//, ''));
    return c !== undefined && c.before?.oid !== c.after?.oid;
  });
}

/**
 * step-finish{snapshot} and, when the step changed files, patch{hash: before, files}. A step whose tools cannot
 * have written anything (no reported write, no bash) reuses the before tree instead of walking the project again.
 */
async function finishStep(
  input: TurnInput,
  messageId: string,
  before: Tracked,
  stepStarted: number,
  run: RunToolsResult,
  outcome: StepEnd,
): Promise<Tracked> {
  const mayHaveWritten = run.opaque || run.written.length > 0;
  const tracked = mayHaveWritten ? { tree: await input.snapshot.track(), at: performance.now() } : before;
  return writeFinish(input, messageId, before.tree, tracked, stepStarted, run, outcome);
}

/** How a step ended, as its step-finish part stores it: the reason, the provider's usage, the failure. */
interface StepEnd {
  reason: string;
  usage?: StepUsage;
  error?: LandfallError;
}

/** The stored form of a step's failure: plain words, the next step, and the provider's raw text when it sent one. */
function storedError(error: LandfallError): StepError {
  const raw = (error.data as { raw?: unknown } | undefined)?.raw;
  return { code: error.code, message: error.message, hint: error.hint, ...(typeof raw === 'string' ? { raw } : {}) };
}

async function writeFinish(
  input: TurnInput,
  messageId: string,
  before: string,
  tracked: Tracked,
  stepStarted: number,
  run: RunToolsResult,
  outcome: StepEnd,
): Promise<Tracked> {
  const { store } = input;
  const sessionId = input.ctx.sessionId;
  const after = tracked.tree;
  const claimed = after === before ? [] : await claimedFiles(input, before, after, stepStarted, run);
  store.tx(() => {
    store.putPart({
      id: newId('prt'),
      sessionId,
      messageId,
      time: Date.now(),
      type: 'step-finish',
      snapshot: after,
      reason: outcome.reason,
      ...(outcome.usage ? { usage: outcome.usage } : {}),
      ...(outcome.error ? { error: storedError(outcome.error) } : {}),
    });
    if (claimed.length > 0) {
      store.putPart({
        id: newId('prt'),
        sessionId,
        messageId,
        time: Date.now(),
        type: 'patch',
        hash: before,
        files: claimed,
      });
      store.logSnapshot(sessionId, messageId, after, claimed);
    }
  });
  return tracked;
}

interface StepOutcome {
  continue: boolean;
  finishReason: TurnResult['finishReason'];
  error?: LandfallError;
  tree?: Tracked;
}

/** A tree hash and when (performance.now() ms) the work tree was walked to get it. */
interface Tracked {
  tree: string;
  at: number;
}

/**
 * A step that starts within this many ms of the last walk of the work tree in the same turn reuses that tree as
 * its before-snapshot: only the loop itself ran in between (no model latency). Past it (a real model answering),
 * or while another session of the project runs, the tree is walked again, so an edit someone else made between
 * steps stays theirs on revert.
 */
export const TREE_REUSE_MS = 250;

/** The snapshot port with the time spent in it added up (for onStepOverhead): every call of `Snapshots`, timed. */
function timedSnapshot(port: SnapshotPort): { port: SnapshotPort; ms: () => number } {
  let total = 0;
  const time = <T>(p: Promise<T>, t0 = performance.now()): Promise<T> =>
    p.finally(() => {
      total += performance.now() - t0;
    });
  const timed: SnapshotPort = {
    track: (o) => time(port.track(o)),
    patch: (h) => time(port.patch(h)),
    diff: (h) => time(port.diff(h)),
    diffFull: (from, to) => time(port.diffFull(from, to)),
    changed: (from, to) => time(port.changed(from, to)),
    restore: (h) => time(port.restore(h)),
    revert: (ps, o) => time(port.revert(ps, o)),
    notCaptured: (items) => time(port.notCaptured(items)),
    listFiles: (h) => time(port.listFiles(h)),
    readFile: (h, f) => time(port.readFile(h, f)),
    gc: (options) => time(port.gc(options)),
    close: () => time(port.close()),
  };
  return { port: timed, ms: () => total };
}

async function stepSetup(turn: TurnInput): Promise<StepSetup> {
  const system = turn.context?.system ?? turn.system;
  if (turn.prepareStep) return turn.prepareStep({ tools: turn.tools, system });
  return { model: turn.model, tools: turn.tools, sdkTools: turn.sdkTools, system };
}

/**
 * The step's system text with the base it was built on (`StepBase.system`: prompt + baseline) replaced by `now`,
 * the base that goes with the history sent (rebuilt after a compaction, context/turn-context.ts systemFor). What
 * a mode added after the base (modes.ts systemForMode appends its instructions) stays as it is.
 */
function rebased(system: string | undefined, base: string | undefined, now: string | undefined): string | undefined {
  if (system === undefined || base === undefined || now === undefined || now === base) return system;
  return system.startsWith(base) ? now + system.slice(base.length) : system;
}

/**
 * The model call of a step under the compaction rules (context/compaction-rules.ts): compact first when the
 * request reaches the trigger; on a context-length error compact once and send once more; a second one, or a
 * stop by the rules, is the step's error.
 */
async function modelCall(
  input: TurnInput,
  guard: CompactionGuard,
  messageId: string,
  send: { setup: StepSetup; step: number; final: boolean },
): Promise<Awaited<ReturnType<typeof streamStep>>> {
  const { setup, step, final } = send;
  const stopped = (error: LandfallError) => ({ toolCalls: [], finishReason: 'error' as const, error, attempts: 0 });
  const first = await guard.beforeStep(messageId);
  if ('error' in first) return stopped(first.error);
  const base = input.context?.system ?? input.system;
  const call = (request: StepRequest) =>
    streamStep({
      model: input.context ? input.context.wrap(setup.model, messageId, step) : setup.model,
      system: rebased(setup.system, base, request.system),
      messages: final ? [...request.messages, { role: 'user', content: LAST_STEP_REMINDER }] : request.messages,
      tools: setup.sdkTools,
      toolChoice: final ? 'none' : undefined,
      signal: input.signal,
      store: input.store,
      emit: input.emit,
      sessionId: input.ctx.sessionId,
      messageId,
      retry: input.retry,
    });
  let streamed = await call(first);
  if (streamed.error?.code === 'context_length') {
    const failed = await guard.afterOverflow(messageId);
    if (failed) return stopped(failed);
    streamed = await call(guard.request());
    if (streamed.error?.code === 'context_length')
      return stopped({
        code: 'context_length',
        message: `The request is still over the model's context window after compacting the history: ${streamed.error.message}`,
        hint: 'Check contextWindow for this model in settings, or start a new session with a short statement of what is left.',
      });
  }
  if (streamed.finishReason !== 'error') guard.modelSucceeded();
  return streamed;
}

async function runStep(
  turn: TurnInput,
  compaction: CompactionGuard,
  messageId: string,
  prev: Tracked | undefined,
  step: number,
  guard: LoopGuard,
  final: boolean,
): Promise<StepOutcome> {
  const timed = timedSnapshot(turn.snapshot);
  const input: TurnInput = { ...turn, snapshot: timed.port };
  const { store, snapshot, ctx } = input;
  const sessionId = ctx.sessionId;
  const setup = await stepSetup(turn);
  guard.offer(setup.tools.map((t) => t.name));
  if (final) guard.finalStep();
  let t0 = performance.now();
  const fresh = prev !== undefined && performance.now() - prev.at < TREE_REUSE_MS && input.othersActive?.() !== true;
  // A turn's first track walks the whole tree: a watcher is only a hint (snapshot/watch.ts).
  const verify = prev === undefined ? { verify: true } : undefined;
  const beforeTracked: Tracked = fresh ? prev : { tree: await snapshot.track(verify), at: performance.now() };
  const before = beforeTracked.tree;
  const stepStarted = Date.now();
  const stepPartId = newId('prt');
  store.putPart({
    id: stepPartId,
    sessionId,
    messageId,
    time: stepStarted,
    type: 'step-start',
    snapshot: before,
    ...(setup.modelLabel ? { model: setup.modelLabel } : {}),
    ...(setup.mode ? { mode: setup.mode } : {}),
  });
  input.context?.beforeStep(
    stepPartId,
    store.messages(sessionId).flatMap((m) => m.parts),
  );
  let overhead = performance.now() - t0;
  const streamed = await modelCall(input, compaction, messageId, { setup, step, final });
  if (streamed.tokens !== undefined) guard.addTokens(streamed.tokens);
  const run = await runTools({
    calls: streamed.toolCalls,
    finishReason: streamed.finishReason,
    tools: new Map(setup.tools.map((t) => [t.name, t])),
    store,
    gate: setup.gate ?? input.gate,
    ctx,
    messageId,
    signal: input.signal,
    guard,
  });
  input.writes.add(sessionId, run.written);
  t0 = performance.now();
  const tree = await finishStep(input, messageId, beforeTracked, stepStarted, run, {
    reason: run.aborted ? 'aborted' : streamed.finishReason,
    ...(streamed.usage ? { usage: streamed.usage } : {}),
    ...(streamed.error ? { error: streamed.error } : {}),
  });
  overhead += performance.now() - t0;
  input.onStepOverhead?.(overhead, { snapshotMs: timed.ms() });
  return stepOutcome(streamed, run, tree);
}

function stepOutcome(
  streamed: Awaited<ReturnType<typeof streamStep>>,
  run: RunToolsResult,
  tree: Tracked,
): StepOutcome {
  if (run.aborted || streamed.finishReason === 'aborted') return { continue: false, finishReason: 'aborted' };
  if (streamed.finishReason === 'error') return { continue: false, finishReason: 'error', error: streamed.error };
  if (streamed.finishReason === 'length') {
    const truncated = streamed.toolCalls.length > 0;
    return {
      continue: truncated,
      finishReason: 'length',
      tree,
      error: truncated
        ? undefined
        : {
            code: 'truncated',
            message: 'The model reached its output limit; the reply is cut off.',
            hint: 'Ask it to continue, or raise the output limit in settings.',
          },
    };
  }
  const calledTools = streamed.toolCalls.length > 0;
  return {
    continue: calledTools,
    finishReason: calledTools ? 'tool-calls' : streamed.finishReason === 'stop' ? 'stop' : 'other',
    tree,
  };
}

/**
 * Run one turn whose user message and (empty) assistant message are already stored (turns.ts stores both before
 * it answers that the turn started): runs steps into the assistant message (see module docstring). Resolves when
 * the turn ends; never throws for provider or tool failures (they are in the result and in the stored parts).
 */
export async function runTurn(
  input: TurnInput,
  ids: { userMessageId: string; messageId: string },
): Promise<TurnResult> {
  const { userMessageId } = ids;
  let message = { id: ids.messageId };
  const guard = new LoopGuard(input.limits ?? DEFAULT_LOOP_LIMITS);
  const compaction = guardFor(input);
  const end = (finishReason: TurnResult['finishReason'], steps: number, error?: LandfallError): TurnResult =>
    error
      ? { userMessageId, messageId: message.id, finishReason, steps, error }
      : { userMessageId, messageId: message.id, finishReason, steps };
  let steps = 0;
  let last: StepOutcome = { continue: true, finishReason: 'other' };
  while (last.continue) {
    if (steps >= input.maxSteps) return end('max-steps', steps);
    if (steps > 0 && input.steer?.() === true) message = input.store.addMessage(input.ctx.sessionId, 'assistant');
    steps++;
    last = await runStep(input, compaction, message.id, last.tree, steps, guard, steps === input.maxSteps);
    if (input.signal.aborted) return end('aborted', steps);
    if (guard.stop) {
      // a repetition stop asks the user whether to go on (loop-decision.ts)
      const repeated = repeatedCall(guard.stop);
      if (repeated) storeLoopStop(input.store, input.ctx.sessionId, message.id, repeated);
      return end(repeated ? 'loop-detected' : 'budget', steps, guard.stop);
    }
  }
  return end(last.finishReason, steps, last.error);
}
