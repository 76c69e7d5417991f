/**
 * The user's decision after the repetition rule stopped a turn (DESIGN §11 "Loops are stopped by rule": the same
 * call five times in a row stops the turn with `loop_detected`, "and the user is asked whether to go on").
 *
 * When the loop guard (loop-guard.ts) stops a turn for a repeated call, the loop stores a `loop-stop` part in the
 * turn's assistant message: the tool, its input, how many times in a row. The stop itself is as before — nothing
 * more runs. The part waits for ONE decision, taken at most once:
 * - 'continue' ("Go on"): a new turn of the same session. Its user message tells the model plainly that the user
 *   let it go on after the repetition warning (`continueText`). Marking the part and storing that message are one
 *   transaction inside the turn's admission (turns.ts `promote`), so two answers cannot both start a turn, and a
 *   turn that cannot be admitted (busy, no model) leaves the question open. The new turn has its own loop guard,
 *   so the repetition counters start afresh.
 * - 'stop' ("Stop here"): the part is marked; nothing runs.
 * - 'superseded': the user sent another message instead; every waiting part of the session is marked when a turn
 *   starts (turns.ts), so an old card cannot resume work later.
 * A part after the session's revert boundary is not waiting: it goes with the reverted messages.
 */
import { fail, ok } from '../../shared/errors';
import type { LandfallError, Result } from '../../shared/errors';
import type { LoopDecision, Message, Part } from '../../shared/model';
import { newId } from '../session/ids';
import type { SessionStore } from '../session/store';

export type LoopStopPart = Extract<Part, { type: 'loop-stop' }>;

/** What the loop guard records about a repetition stop (LandfallError.data of `loop_detected`). */
export interface RepeatedCall {
  tool: string;
  input: unknown;
  repeats: number;
}

/** The repeated call a `loop_detected` stop carries, or undefined for any other stop. */
export function repeatedCall(stop: LandfallError): RepeatedCall | undefined {
  if (stop.code !== 'loop_detected') return undefined;
  const d = stop.data as Partial<RepeatedCall> | undefined;
  if (typeof d?.tool !== 'string' || typeof d.repeats !== 'number') return undefined;
  return { tool: d.tool, input: d.input, repeats: d.repeats };
}

/** Store the waiting `loop-stop` part of a turn the repetition rule stopped, in its assistant message. */
export function storeLoopStop(store: SessionStore, sessionId: string, messageId: string, call: RepeatedCall): void {
  store.putPart({
    id: newId('prt'),
    sessionId,
    messageId,
    time: Date.now(),
    type: 'loop-stop',
    tool: call.tool,
    input: call.input,
    repeats: call.repeats,
  });
}

/** The input of a repeated call as one line of JSON, cut at `max` characters (for the model and the terminal). */
export function inputLine(input: unknown, max = 300): string {
  const json = JSON.stringify(input) ?? 'null';
  return json.length <= max ? json : `${json.slice(0, max)}… (${json.length} characters)`;
}

/** The user message of the turn "Go on" starts: plain words for the model (module docstring). */
export function continueText(part: Pick<LoopStopPart, 'tool' | 'input' | 'repeats'>): string {
  return (
    `[The previous turn was stopped because you made the same call ${part.repeats} times in a row: ` +
    `${part.tool} with the input ${inputLine(part.input)}. The user saw the repetition warning and lets you go ` +
    `on. Continue the task, but do not repeat that call unchanged: its result will not change. Try something ` +
    `different, or stop and tell the user what is in the way.]`
  );
}

/** Parts of the session still in force (before its revert boundary, when it has one). */
function livePart(store: SessionStore, sessionId: string, partId: string): { part?: Part; reverted: boolean } {
  const messages = store.messages(sessionId);
  const boundary = store.getSession(sessionId)?.revert;
  const at = boundary ? messages.findIndex((m) => m.id === boundary.messageId) : -1;
  for (const [i, m] of messages.entries()) {
    const part = m.parts.find((p) => p.id === partId);
    if (!part) continue;
    if (at < 0 || i < at) return { part, reverted: false };
    if (i > at || boundary?.partId === undefined) return { part, reverted: true };
    const cut = m.parts.findIndex((p) => p.id === boundary.partId);
    return { part, reverted: m.parts.indexOf(part) >= cut };
  }
  return { reverted: false };
}

/**
 * The waiting `loop-stop` part `partId` of `sessionId`. Errors: `not_found` when the session has no such part or
 * it lies after the revert boundary; `conflict` when it was decided already (`data.decision` says how).
 */
export function pendingLoopStop(store: SessionStore, sessionId: string, partId: string): Result<LoopStopPart> {
  const { part, reverted } = livePart(store, sessionId, partId);
  if (part?.type !== 'loop-stop' || reverted)
    return fail(
      'not_found',
      reverted
        ? 'That repetition stop was undone with the messages after the revert boundary.'
        : `The session has no repetition stop ${partId} waiting for a decision.`,
      'Open the session again; send a message to go on.',
    );
  if (part.decision !== undefined)
    return fail(
      'conflict',
      `This repetition stop was answered already (${part.decision}).`,
      'Send a message to give the agent new instructions.',
      { decision: part.decision },
    );
  return ok(part);
}

/** Mark `part` decided. */
export function decideLoopStop(store: SessionStore, part: LoopStopPart, decision: LoopDecision): void {
  store.putPart({ ...part, decision });
}

/** Mark every waiting `loop-stop` part of the session 'superseded' (a turn is starting from another message). */
export function supersedeLoopStops(store: SessionStore, sessionId: string): void {
  for (const m of store.messages(sessionId))
    for (const p of m.parts)
      if (p.type === 'loop-stop' && p.decision === undefined) decideLoopStop(store, p, 'superseded');
}

/**
 * The admission hook of the "Go on" turn (turns.ts TalkTurn.promote): in one transaction, check the part still
 * waits, mark it 'continue' and store the user message (`store` writes it: turns.ts storeUserMessage). Errors as
 * `pendingLoopStop`'s.
 */
export function continuePromotion(
  store: SessionStore,
  sessionId: string,
  partId: string,
  storeUser: (text: string) => { message: Message; text: string },
): () => Result<{ message: Message; text: string }> {
  return () =>
    store.tx(() => {
      const pending = pendingLoopStop(store, sessionId, partId);
      if (!pending.ok) return pending;
      decideLoopStop(store, pending.value, 'continue');
      return ok(storeUser(continueText(pending.value)));
    });
}

/** What answering a repetition stop needs from the service; `T` is the service's turn handle. */
export interface LoopAnswerDeps<T> {
  store: SessionStore;
  /** True while a turn or a history move of the session runs. */
  busy: (sessionId: string) => boolean;
  /** Start a turn whose user message `promote` writes (AgentService.startTurn with a promotion). */
  start: (promote: () => Result<{ message: Message; text: string }>) => Promise<Result<{ turn: T }>>;
  /** Writes a user message and its text part (turns.ts storeUserMessage). */
  storeUser: (text: string) => { message: Message; text: string };
}

/** What an answer did: the decision, and the turn "Go on" started. */
export interface LoopAnswer<T> {
  decision: 'continue' | 'stop';
  turn?: T;
}

/**
 * Answer the repetition stop `partId` of `sessionId` (module docstring). Errors, with nothing changed:
 * `invalid_input` (unknown session), `busy` (a turn or a history move runs), `not_found` (no such stop waiting),
 * `conflict` (decided already), and for 'continue' whatever starting the turn answers (e.g. `unauthorized`).
 */
export async function answerLoopStop<T>(
  deps: LoopAnswerDeps<T>,
  sessionId: string,
  partId: string,
  decision: 'continue' | 'stop',
): Promise<Result<LoopAnswer<T>>> {
  const { store } = deps;
  if (!store.getSession(sessionId)) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session.');
  if (deps.busy(sessionId))
    return fail('busy', 'The session is running a turn or a revert.', 'Wait for it to end, then answer again.');
  const pending = pendingLoopStop(store, sessionId, partId);
  if (!pending.ok) return pending;
  if (decision === 'stop') {
    decideLoopStop(store, pending.value, 'stop');
    return ok({ decision });
  }
  const started = await deps.start(continuePromotion(store, sessionId, partId, deps.storeUser));
  return started.ok ? ok({ decision, turn: started.value.turn }) : started;
}
