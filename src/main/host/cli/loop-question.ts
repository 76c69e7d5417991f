/**
 * `landfall run`'s question after a repetition stop (DESIGN §11; the rules in src/main/agent/loop-decision.ts):
 * when a turn ends with `loop_detected` and its `loop-stop` part waits for a decision, the terminal is asked
 * "Go on? [y/N]". Only `y` / `yes` goes on (a new turn that tells the model the user let it continue); anything
 * else, an empty line or the end of the input stops here. Type-ahead is thrown away before the question, as for
 * permission questions (terminal-input.ts), so a stray `y` typed earlier never answers it.
 *
 * Unattended runs are never asked: when stdin is not a terminal (a pipe, a file, CI), nothing is read, the stop
 * stays waiting (the app can still answer it later — nothing is decided for the user) and the run says so and
 * ends. Going on needs a person at a terminal: a scripted "y" piped in cannot lift a runaway-loop stop.
 */
import type { LandfallError, Result } from '../../../shared/errors';
import type { Part } from '../../../shared/model';
import { inputLine } from '../../agent/loop-decision';

type LoopStopPart = Extract<Part, { type: 'loop-stop' }>;

/** What a turn ended with, as far as this question needs it (agent/service-types.ts TurnResult). */
export interface EndedTurn {
  finishReason: string;
  steps: number;
  error?: LandfallError;
}

/** What the question needs from the command (session.ts wires the service and the terminal). */
export interface LoopQuestionDeps {
  sessionId: string;
  /** True when a person can answer: stdin is a terminal. */
  interactive: boolean;
  /** The session's `loop-stop` part still waiting for a decision, if any. */
  waiting(): LoopStopPart | undefined;
  /** AgentService.answerLoop: `turn.done` settles when the "Go on" turn ends. */
  answer(
    partId: string,
    decision: 'continue' | 'stop',
  ): Promise<Result<{ turn?: { done: Promise<EndedTurn> } | undefined }>>;
  /** Drops type-ahead, returning how many characters were dropped; then the next typed line (undefined: ended). */
  discardTypeAhead(): number;
  line(): Promise<string | undefined>;
  out(s: string): void;
  /** Prints how a turn ended (session.ts: the closing line on stdout, its error on stderr). */
  report(r: EndedTurn): void;
}

/** The question printed on the terminal for `part` (and how much type-ahead was thrown away). */
export function loopQuestionText(part: LoopStopPart, discarded: number): string {
  const lines = [''];
  if (discarded > 0) lines.push(`(discarded ${discarded} characters typed ahead)`);
  lines.push(`Stopped: the agent made the same call ${part.repeats} times in a row:`);
  lines.push(`  ${part.tool} ${inputLine(part.input)}`);
  lines.push('? Go on (the agent is told it was repeating itself)? [y/N]: ');
  return lines.join('\n');
}

/** The decision a typed line means: only `y` / `yes` (any case) goes on; undefined (input ended) stops. */
export function loopDecisionFor(line: string | undefined): 'continue' | 'stop' {
  const word = line?.trim().toLowerCase();
  return word === 'y' || word === 'yes' ? 'continue' : 'stop';
}

/**
 * After the turn `first` ended: while it ended with a repetition stop that waits, ask (module docstring) and
 * answer; "Go on" runs the next turn and its end is judged the same way. Returns the last turn's end (what the
 * command's exit code follows). A refused answer (e.g. `conflict`: answered in the app meanwhile) is said and
 * ends the asking.
 */
export async function askAfterLoopStops(deps: LoopQuestionDeps, first: EndedTurn): Promise<EndedTurn> {
  let last = first;
  for (;;) {
    if (last.error?.code !== 'loop_detected') return last;
    const part = deps.waiting();
    if (!part) return last;
    if (!deps.interactive) {
      deps.out(
        `Not asked whether to go on: stdin is not a terminal (an unattended run). The turn stays stopped; the ` +
          `question waits in session ${deps.sessionId} — open it in Landfall to go on, or send a new message.\n`,
      );
      return last;
    }
    deps.out(loopQuestionText(part, deps.discardTypeAhead()));
    const decision = loopDecisionFor(await deps.line());
    const r = await deps.answer(part.id, decision);
    if (!r.ok) {
      deps.out(`${r.error.message} ${r.error.hint}\n`);
      return last;
    }
    if (decision === 'stop' || !r.value.turn) {
      deps.out('Stopped here.\n');
      return last;
    }
    last = await r.value.turn.done;
    deps.report(last);
  }
}
