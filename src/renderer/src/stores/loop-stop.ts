/**
 * What the chat's repetition-stop card shows and allows (the `loop-stop` part of src/shared/model.ts; main's rules
 * in src/main/agent/loop-decision.ts). Pure: the card renders this view and the loop slice acts on it, so the
 * decision rules live here and are unit-tested, not in the component.
 *
 * A stop is 'waiting' while it has no decision and is not past the session's revert boundary; only a waiting
 * stop offers "Go on" / "Stop here", and only while no turn of the session runs and no answer is on its way
 * (main would answer `busy` or `conflict`). An answered stop says how; a reverted one says it went with the undo.
 */
import type { Part } from '../../../shared/contract';

export type LoopStopPart = Extract<Part, { type: 'loop-stop' }>;

/** The card's state: waiting for the user, decided (how), or undone with the reverted messages. */
export type LoopStopState = 'waiting' | 'continue' | 'stop' | 'superseded' | 'reverted';

export interface LoopStopView {
  state: LoopStopState;
  /** "Stopped: the agent made the same call 5 times in a row". */
  title: string;
  /** The repeated call's tool name. */
  tool: string;
  /** The repeated input as pretty JSON, cut at 1,200 characters with the full length said. */
  input: string;
  /** True when the buttons may be pressed now (waiting, no turn running, no answer on its way). */
  canAnswer: boolean;
  /** Why the buttons are disabled while waiting (a turn runs, an answer is on its way), else undefined. */
  blockedBy?: string;
  /** The line shown once it is not waiting. */
  outcome?: string;
}

const OUTCOME: Record<Exclude<LoopStopState, 'waiting'>, string> = {
  continue: 'You let it go on.',
  stop: 'Stopped here.',
  superseded: 'Answered by your next message.',
  reverted: 'Undone with the messages after the revert point.',
};

/** The input as the card shows it: pretty JSON, cut at `max` characters (1,200) with the full length said. */
export function shownInput(input: unknown, max = 1200): string {
  const text = JSON.stringify(input, null, 2) ?? 'null';
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length} characters)`;
}

/**
 * The card's view of `part`. `reverted`: the part lies past the session's revert boundary; `running`: a turn of
 * its session runs; `answering`: an answer to this part was sent and not yet answered.
 */
export function loopStopView(
  part: LoopStopPart,
  flags: { reverted: boolean; running: boolean; answering: boolean },
): LoopStopView {
  const state: LoopStopState = part.decision ?? (flags.reverted ? 'reverted' : 'waiting');
  const waiting = state === 'waiting';
  const blockedBy = !waiting
    ? undefined
    : flags.answering
      ? 'Sending your answer…'
      : flags.running
        ? 'A turn is running; answer when it ends.'
        : undefined;
  return {
    state,
    title: `Stopped: the agent made the same call ${part.repeats} times in a row`,
    tool: part.tool,
    input: shownInput(part.input),
    canAnswer: waiting && blockedBy === undefined,
    ...(blockedBy ? { blockedBy } : {}),
    ...(waiting ? {} : { outcome: OUTCOME[state as Exclude<LoopStopState, 'waiting'>] }),
  };
}

/**
 * True when the turn error `code` is already told by a repetition card in the last message (a `loop_detected`
 * stop that left a `loop-stop` part), so the chat does not show the same stop twice.
 */
export function toldByLoopCard(messages: { parts: Part[] }[], code: string): boolean {
  return code === 'loop_detected' && !!messages.at(-1)?.parts.some((p) => p.type === 'loop-stop');
}
