/**
 * Starting, running and stopping turns (DESIGN §6). A turn is ADMITTED when no turn or history move of its
 * session runs and its project's snapshot store opens; then, in this order: the session is marked running and a
 * `session.state busy` event goes out, a staged revert is committed (cleanup, DESIGN §5), the title is taken from
 * the first prompt, the user message and its text part are stored, and the assistant message is created. Only
 * then does `startTurn` answer, with a handle naming both messages — the loop (loop.ts) runs on in the background
 * and the handle's `done` settles when it ends, with `session.state idle` (or `error`) sent just before.
 *
 * A failure before admission is the answer (`busy`, `invalid_input`, the store's); nothing was stored. When the
 * session's first baseline cannot be built (context/turn-context.ts) the answer is `unavailable`: the user message
 * is stored and kept for the next try, no request is sent. A failure
 * after it is the turn's result (`finishReason: 'error'`), never a rejection, so a caller that does not wait
 * (the app answers the window at once) cannot leave an unhandled rejection behind.
 */
import path from 'node:path';
import type { LanguageModel, ModelMessage } from 'ai';
import { todoResendMessage } from './todo-resend';
import { supersedeLoopStops } from './loop-decision';
import type { SessionStore } from '../session/store';
import { fail, isFailure, LandfallFailure, ok } from '../../shared/errors';
import type { Message } from '../../shared/model';
import { todosOf } from '../../shared/todo';
import { readTalk, writeMessageMode } from '../session/talk';
import { limitsFrom } from './loop-guard';
import type { LoopLimits } from './loop-guard';
import { findMode } from './modes';
import { modesOf } from './talk-service';
import type { talkSteps } from './talk-steps';
import type { LandfallError, Result } from '../../shared/errors';
import * as history from '../session/revert';
import { markEnded, markRunning, runsElsewhere } from '../session/running';
import { toSdkTools } from '../tools/registry';
import type { ToolDefinition } from '../tools/types';
import { DEFAULT_TITLE, SYSTEM_PROMPT, titleFrom } from './defaults';
import { runTurn, type TurnInput } from './loop';
import type { ProjectRuntime } from './project';
import type { ServiceCore } from './service-core';
import type { TurnContext } from './context/turn-context';
import type { TurnHandle, TurnResult } from './service-types';

/** The error a turn ends with when something threw inside it: the failure's own, else `internal` (a bug). */
function thrownError(e: unknown): LandfallError {
  if (isFailure(e)) return e.error;
  return {
    code: 'internal',
    message: `The turn failed: ${e instanceof Error ? e.message : String(e)}`,
    hint: 'This is a bug; the session is stored as far as it got.',
  };
}

/**
 * The tools of a turn: the built-in ones, then the project's MCP tools (src/main/reach/mcp/hub.ts: started on
 * first use, each within its start timeout); an MCP tool whose name a built-in tool has is left out. The list is
 * fixed for the whole turn (a tools/list_changed applies from the next turn: the request prefix stays stable).
 */
async function turnTools(core: ServiceCore, root: string): Promise<ToolDefinition[]> {
  const own = new Set(core.tools.map((t) => t.name));
  const mcp = (await core.mcp.toolsFor(root)).filter((t) => !own.has(t.name));
  return [...core.tools, ...mcp];
}

/** The loop's input for one turn of `sessionId` in `rt`. */
function turnInput(
  core: ServiceCore,
  sessionId: string,
  rt: ProjectRuntime,
  model: LanguageModel,
  maxSteps: number,
  signal: AbortSignal,
  context: TurnContext,
  tools: ToolDefinition[],
  talk: TalkTurn,
): TurnInput {
  const { options, store } = core;
  return {
    store,
    snapshot: rt.snapshot,
    gate: core.gate,
    model,
    tools,
    sdkTools: toSdkTools(tools),
    ctx: {
      root: rt.project.root,
      sessionId,
      observed: core.observed,
      diagnostics: options.diagnostics?.(rt.project),
      scratchDir: path.join(options.dataDir, 'scratch'),
      journalDir: path.join(options.dataDir, 'journal'),
      question: core.questions.portFor(sessionId),
      todos: () => todosOf(store.messages(sessionId), store.getSession(sessionId)?.revert),
    },
    writes: rt.writes,
    system: SYSTEM_PROMPT,
    context,
    signal,
    emit: (e) => core.emit(e),
    maxSteps,
    retry: options.retry,
    onStepOverhead: options.onStepOverhead,
    othersActive: () => [...core.runningProject].some(([id, p]) => id !== sessionId && p === rt.project.id),
    limits: talk.limits ?? limitsFrom(core.live.current().limits),
    prepareStep: talk.steps.prepareStep,
    steer: core.queue.steerFor(sessionId),
    window: talk.window,
    afterSummary: () => afterSummary(core, sessionId),
  };
}

/**
 * What is re-sent right after a compaction's summary (loop.ts TurnInput.afterSummary): the todo list in force
 * (todo-resend.ts), so it is not left to the summary's prose. The instructions are not re-sent as a message: the
 * compaction rebuilds the system text with them (context/turn-context.ts systemFor).
 */
function afterSummary(core: ServiceCore, sessionId: string): ModelMessage[] {
  const { store } = core;
  const todo = todoResendMessage(store.messages(sessionId), store.getSession(sessionId)?.revert);
  return todo ? [todo] : [];
}

/** The conversation layer's part of a turn: its per-step mode and model (talk-steps.ts), loop limits, promotion. */
export interface TalkTurn {
  steps: ReturnType<typeof talkSteps>;
  /** The model's window and summary model (loop.ts TurnInput.window). */
  window?: TurnInput['window'];
  limits?: LoopLimits;
  promote?: () => Result<{ message: Message; text: string }>;
  holdQueue?: boolean;
}

/** Stores what a turn starts with (module docstring, after "in this order"); returns both message ids. */
function storeStart(core: ServiceCore, sessionId: string, title: string, text: string, talk: TalkTurn) {
  const { store } = core;
  history.cleanup(store, sessionId);
  // a queued message is promoted here, in one transaction with its user message (session/inbox.ts)
  const promoted = talk.promote ? talk.promote() : ok(storeUserMessage(store, sessionId, text));
  if (!promoted.ok) throw new LandfallFailure(promoted.error);
  const said = promoted.value.text;
  const user = promoted.value.message;
  // a repetition stop still waiting is answered by this new message (loop-decision.ts)
  supersedeLoopStops(store, sessionId);
  if (title === DEFAULT_TITLE && said.trim() !== '') store.updateSession(sessionId, { title: titleFrom(said) });
  writeMessageMode(store.db, user.id, findMode(modesOf(core.live.current()), readTalk(store.db, sessionId)?.mode).name);
  const assistant = store.addMessage(sessionId, 'assistant');
  return { userMessageId: user.id, messageId: assistant.id };
}

/** The user's message and its text part, stored in one transaction. */
export function storeUserMessage(
  store: SessionStore,
  sessionId: string,
  text: string,
): { message: Message; text: string } {
  return store.tx(() => {
    const message = store.addMessage(sessionId, 'user', text);
    const time = message.time;
    store.putPart({ id: `${message.id}_text`, sessionId, messageId: message.id, time, type: 'text', text });
    return { message, text };
  });
}

/** The session's state event for how the turn ended. */
function endState(core: ServiceCore, sessionId: string, error: LandfallError | undefined): void {
  core.emit(
    error
      ? {
          type: 'session.state',
          sessionId,
          state: 'error',
          error: { code: error.code, message: error.message, hint: error.hint },
        }
      : { type: 'session.state', sessionId, state: 'idle' },
  );
}

/**
 * Admit and start one turn of `sessionId` with `model` for the user's `text` (module docstring). Errors: `busy`
 * when a turn or a history move of the session runs; `invalid_input` for an unknown session; the snapshot
 * store's failure. Throws only for a bug before admission.
 */
export async function startTurn(
  core: ServiceCore,
  sessionId: string,
  model: LanguageModel,
  text: string,
  maxSteps = 50,
  talk: TalkTurn,
): Promise<Result<{ turn: TurnHandle }>> {
  if (core.running.has(sessionId) || core.reverting.has(sessionId))
    return fail('busy', 'The session is already running a turn or a revert.', 'Wait for it to end or stop it.');
  if (runsElsewhere(core.store.db, sessionId))
    return fail(
      'busy',
      'The session is running a turn in another window or the command line.',
      'Wait for it to end there, or stop it there.',
    );
  const abort = new AbortController();
  // claimed before the first await, so two prompts sent at once cannot both be admitted
  core.running.set(sessionId, abort);
  const release = (): void => {
    core.running.delete(sessionId);
    core.runningProject.delete(sessionId);
    markEnded(core.store.db, sessionId);
  };
  const found = await core.runtimes.forSession(sessionId);
  if (!found.ok) {
    release();
    return found;
  }
  const { session, rt } = found.value;
  core.runningProject.set(sessionId, rt.project.id);
  // recorded for other processes on this data folder and for a window that reloads (session/running.ts)
  markRunning(core.store.db, sessionId);
  core.emit({ type: 'session.state', sessionId, state: 'busy' });
  let ids: { userMessageId: string; messageId: string };
  try {
    ids = storeStart(core, sessionId, session.title, text, talk);
  } catch (e) {
    release();
    endState(core, sessionId, thrownError(e));
    if (isFailure(e)) return e.toFail();
    throw e;
  }
  // the baseline is built on the session's first model call; when it cannot be, the turn waits (message kept)
  const context = core.context.openTurn(sessionId, rt.project.root, SYSTEM_PROMPT);
  if (!context.ok) {
    release();
    endState(core, sessionId, context.error);
    return context;
  }
  const done = turnTools(core, rt.project.root)
    .then((tools) =>
      runTurn(turnInput(core, sessionId, rt, model, maxSteps, abort.signal, context.value, tools, talk), ids),
    )
    .catch((e: unknown): TurnResult => ({ ...ids, finishReason: 'error', steps: 0, error: thrownError(e) }))
    .then((result) => {
      const first = talk.steps.modesUsed[0];
      if (first !== undefined) writeMessageMode(core.store.db, ids.messageId, first);
      release();
      endState(core, sessionId, result.error);
      // messages queued while this turn ran go next (queue.ts), unless it was stopped or failed
      if (talk.holdQueue !== true) core.queue.turnEnded(sessionId, ok(result));
      return result;
    });
  core.turnsDone.add(done);
  void done.then(() => core.turnsDone.delete(done));
  return ok({ turn: { ...ids, done } });
}

/** Stop a running turn (the running tool becomes `interrupted`, partial text is kept). False when idle. */
export function stopTurn(core: ServiceCore, sessionId: string): boolean {
  const abort = core.running.get(sessionId);
  if (!abort) return false;
  core.gate.cancel(sessionId);
  core.questions.cancel(sessionId);
  abort.abort(new Error('stopped by the user'));
  return true;
}
