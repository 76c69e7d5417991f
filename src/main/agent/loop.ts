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
 */
import type { LanguageModel, ToolSet } from 'ai';
import type { LandfallError } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import type { StepError, StepUsage } from '../../shared/model';
import type { SessionStore } from '../session/store';
import type { SnapshotPort } from '../session/snapshot-port';
import { newId } from '../session/ids';
import type { ToolContext, ToolDefinition } from '../tools/types';
import type { PermissionGate } from './permission/gate';
import { buildHistory } from './history';
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
}

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
    revert: (ps) => time(port.revert(ps)),
    notCaptured: (items) => time(port.notCaptured(items)),
    listFiles: (h) => time(port.listFiles(h)),
    readFile: (h, f) => time(port.readFile(h, f)),
    gc: (options) => time(port.gc(options)),
    close: () => time(port.close()),
  };
  return { port: timed, ms: () => total };
}

async function runStep(
  turn: TurnInput,
  messageId: string,
  prev: Tracked | undefined,
  step: number,
): Promise<StepOutcome> {
  const timed = timedSnapshot(turn.snapshot);
  const input: TurnInput = { ...turn, snapshot: timed.port };
  const { store, snapshot, ctx } = input;
  const sessionId = ctx.sessionId;
  let t0 = performance.now();
  const fresh = prev !== undefined && performance.now() - prev.at < TREE_REUSE_MS && input.othersActive?.() !== true;
  // A turn's first track walks the whole tree: a watcher is only a hint (snapshot/watch.ts).
  const verify = prev === undefined ? { verify: true } : undefined;
  const beforeTracked: Tracked = fresh ? prev : { tree: await snapshot.track(verify), at: performance.now() };
  const before = beforeTracked.tree;
  const stepStarted = Date.now();
  const stepPartId = newId('prt');
  store.putPart({ id: stepPartId, sessionId, messageId, time: stepStarted, type: 'step-start', snapshot: before });
  const stored = store.messages(sessionId);
  input.context?.beforeStep(
    stepPartId,
    stored.flatMap((m) => m.parts),
  );
  const history = buildHistory(stored, (id) => store.messageText(id), input.context?.notices());
  let overhead = performance.now() - t0;
  const streamed = await streamStep({
    model: input.context ? input.context.wrap(input.model, messageId, step) : input.model,
    system: input.context?.system ?? input.system,
    messages: history,
    tools: input.sdkTools,
    signal: input.signal,
    store,
    emit: input.emit,
    sessionId,
    messageId,
    retry: input.retry,
  });
  const run = await runTools({
    calls: streamed.toolCalls,
    finishReason: streamed.finishReason,
    tools: new Map(input.tools.map((t) => [t.name, t])),
    store,
    gate: input.gate,
    ctx,
    messageId,
    signal: input.signal,
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
  const message = { id: ids.messageId };
  let steps = 0;
  let last: StepOutcome = { continue: true, finishReason: 'other' };
  while (last.continue) {
    if (steps >= input.maxSteps) return { userMessageId, messageId: message.id, finishReason: 'max-steps', steps };
    steps++;
    last = await runStep(input, message.id, last.tree, steps);
    if (input.signal.aborted) return { userMessageId, messageId: message.id, finishReason: 'aborted', steps };
  }
  return { userMessageId, messageId: message.id, finishReason: last.finishReason, steps, error: last.error };
}
