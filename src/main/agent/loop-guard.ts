/**
 * The loop guard: the rules that stop a runaway turn (DESIGN §11 "Loops are stopped by rule, also when everything
 * is allowed"). One guard lives for one turn; the tool runner asks it before every call and tells it every result.
 * It sits after the model and before the permission gate, so no permission rule (not even allow-everything) can
 * switch it off.
 *
 * - Repetition: the same call (tool name + identical input, keys in any order) N times in a row in the turn.
 *   At `repeatNotice` (3) the call runs and its result ends with a notice telling the model it is repeating
 *   itself; at `repeatStop` (5) the call is refused (`loop_detected`, nothing runs) and the turn stops, so the user
 *   decides whether to go on (the stop's `data` names the call; loop-decision.ts stores the question). Anchor: an auto-approved agent logged 10,943 repeated calls in four hours.
 * - Failing tool: one tool failing `failSuspend` (3) times in a row with different inputs is suspended for the rest
 *   of the turn: the third result says so, and every later call of it is refused (`tool_suspended`); other tools
 *   go on. A repeat of the very same failing input does not count again (that is the repetition rule's business).
 *   Failures that are not the tool's own (permission refused, stopped, cut off, refused by this guard) do not count.
 * - Offered tools: a call to a tool the current request did not offer is refused (`tool_not_offered`), naming the
 *   tools that are offered (a model working from a stale list, or a mode that withholds the tool).
 * - Last step: `finalStep()` makes every call refused (`step_limit`): that request allowed none.
 * - Budget: at most `maxToolCalls` calls per turn; the first call past it is refused (`budget_exceeded`) and the
 *   turn stops. Tokens are added with `addTokens` (per-turn budget `maxTokens`, off when undefined).
 */
import type { ErrorCode } from '../../shared/errors';
import type { LandfallError } from '../../shared/errors';

/** Limits of one turn. Counts are calls; tokens are the provider's reported input + output tokens. */
export interface LoopLimits {
  repeatNotice: number;
  repeatStop: number;
  failSuspend: number;
  /** Tool calls per turn (settings.limits.maxToolCallsPerTurn). */
  maxToolCalls: number;
  /** Tokens per turn (settings.limits.maxTokensPerTurn); undefined = no budget. */
  maxTokens?: number;
}

/** Defaults: notice at 3, stop at 5, suspend at 3 failures, 200 tool calls per turn, no token budget. */
export const DEFAULT_LOOP_LIMITS: LoopLimits = { repeatNotice: 3, repeatStop: 5, failSuspend: 3, maxToolCalls: 200 };

/**
 * Limits for a replay (agent/replay): a recording is a finite list of calls that cannot run away, and it must play
 * as it was recorded — so no repetition or failure rule and no call budget (the offered-tools and last-step rules
 * still hold).
 */
export const REPLAY_LOOP_LIMITS: LoopLimits = {
  repeatNotice: Infinity,
  repeatStop: Infinity,
  failSuspend: Infinity,
  maxToolCalls: Infinity,
};

/** The per-turn budgets a user sets in settings.json (`limits`); absent fields keep the defaults. */
export interface TurnLimitSettings {
  maxToolCallsPerTurn?: number;
  maxTokensPerTurn?: number;
}

/** The loop limits for a turn from the settings' `limits` (absent: DEFAULT_LOOP_LIMITS). */
export function limitsFrom(settings: TurnLimitSettings | undefined): LoopLimits {
  const out: LoopLimits = { ...DEFAULT_LOOP_LIMITS };
  if (settings?.maxToolCallsPerTurn !== undefined) out.maxToolCalls = settings.maxToolCallsPerTurn;
  if (settings?.maxTokensPerTurn !== undefined) out.maxTokens = settings.maxTokensPerTurn;
  return out;
}

/** A call as the guard sees it. */
export interface GuardedCall {
  toolName: string;
  input: unknown;
}

/** Why a call was not run: the code and the text the model reads as its result. */
export interface Refusal {
  code: ErrorCode;
  message: string;
}

/** What a finished call looked like: completed, or an error with its code. */
export interface CallResult {
  state: 'completed' | 'error' | 'pending' | 'running';
  error?: { code: string };
}

/** Error codes that are not the tool's own failure (they never suspend a tool). */
const NOT_THE_TOOLS_FAULT = new Set<string>([
  'permission_denied',
  'interrupted',
  'truncated',
  'loop_detected',
  'tool_suspended',
  'tool_not_offered',
  'step_limit',
  'budget_exceeded',
  'dismissed',
]);

/** JSON with object keys sorted at every depth, so `{a,b}` and `{b,a}` are the same call. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The per-turn guard (module docstring). */
export class LoopGuard {
  private lastKey: string | undefined;
  private repeats = 0;
  private calls = 0;
  private tokens = 0;
  private final = false;
  private readonly failures = new Map<string, { streak: number; lastKey: string }>();
  private readonly suspended = new Map<string, string>();
  /** Set when the turn must stop after this step: the error the user sees. */
  stop: LandfallError | undefined;

  constructor(
    private readonly limits: LoopLimits = DEFAULT_LOOP_LIMITS,
    private offered: string[] = [],
  ) {}

  /** The tools the current request offered (set at every step: a mode or a switch may change them). */
  offer(tools: string[]): void {
    this.offered = [...tools];
  }

  /** This step is the last one of the turn: its request allowed no tool call. */
  finalStep(): void {
    this.final = true;
  }

  /** Judge a call before it runs; a refusal means it must not run (see the module docstring for each rule). */
  before(call: GuardedCall): Refusal | undefined {
    if (this.stop) return { code: 'interrupted', message: `Not run: the turn stopped (${this.stop.message})` };
    if (this.final)
      return {
        code: 'step_limit',
        message:
          'Not run: this turn reached its step limit and the last request allows no tool call. Answer in text: sum up what is done and what is left.',
      };
    if (!this.offered.includes(call.toolName))
      return {
        code: 'tool_not_offered',
        message: `Not run: ${call.toolName} is not among the tools offered in this request. The tools offered now are: ${this.offered.join(', ')}.`,
      };
    const key = `${call.toolName}\u0000${canonicalJson(call.input)}`;
    this.repeats = key === this.lastKey ? this.repeats + 1 : 1;
    this.lastKey = key;
    if (this.repeats >= this.limits.repeatStop)
      return this.stopWith('loop_detected', this.loopMessage(call), {
        tool: call.toolName,
        input: call.input,
        repeats: this.repeats,
      });
    const why = this.suspended.get(call.toolName);
    if (why) return { code: 'tool_suspended', message: `Not run: ${call.toolName} is suspended for this turn: ${why}` };
    if (this.calls >= this.limits.maxToolCalls)
      return this.stopWith(
        'budget_exceeded',
        `The turn used its budget of ${this.limits.maxToolCalls} tool calls; this call was not run.`,
      );
    this.calls++;
    return undefined;
  }

  /** Record a call's result; returns a notice to append to the result the model reads, or undefined. */
  after(call: GuardedCall, result: CallResult): string | undefined {
    const notices: string[] = [];
    if (this.repeats >= this.limits.repeatNotice)
      notices.push(
        `Notice: you have made this exact call (${call.toolName} with the same input) ${this.repeats} times in a row; its result will not change. Do something different, or stop and tell the user what is in the way. At ${this.limits.repeatStop} the turn is stopped.`,
      );
    const failed = result.state === 'error' && !NOT_THE_TOOLS_FAULT.has(result.error?.code ?? '');
    if (!failed) {
      if (result.state === 'completed') this.failures.delete(call.toolName);
    } else {
      const key = canonicalJson(call.input);
      const cur = this.failures.get(call.toolName);
      const streak = cur === undefined ? 1 : cur.lastKey === key ? cur.streak : cur.streak + 1;
      this.failures.set(call.toolName, { streak, lastKey: key });
      if (streak >= this.limits.failSuspend && !this.suspended.has(call.toolName)) {
        const why = `it failed ${streak} times in a row with different inputs (last error: ${result.error?.code ?? 'error'})`;
        this.suspended.set(call.toolName, why);
        notices.push(
          `Notice: ${call.toolName} is suspended for the rest of this turn because ${why}. Other tools still work; explain the problem to the user if you cannot go on without it.`,
        );
      }
    }
    return notices.length > 0 ? notices.join('\n') : undefined;
  }

  /** Add a step's tokens; past the budget the turn stops after this step. */
  addTokens(n: number): void {
    this.tokens += n;
    const max = this.limits.maxTokens;
    if (max !== undefined && this.tokens > max && !this.stop)
      this.stop = {
        code: 'budget_exceeded',
        message: `The turn used ${this.tokens} tokens, over its budget of ${max}.`,
        hint: 'Send a message to go on (the budget starts again), or raise limits.maxTokensPerTurn in settings.',
        data: { tokens: this.tokens, budget: max },
      };
  }

  /** Tools suspended so far in this turn, with why. */
  suspendedTools(): Record<string, string> {
    return Object.fromEntries(this.suspended);
  }

  private loopMessage(call: GuardedCall): string {
    return `The model sent the same ${call.toolName} call ${this.repeats} times in a row; the turn was stopped so it cannot go on repeating itself.`;
  }

  private stopWith(
    code: 'loop_detected' | 'budget_exceeded',
    message: string,
    data?: Record<string, unknown>,
  ): Refusal {
    this.stop = {
      code,
      message,
      hint:
        code === 'loop_detected'
          ? 'Answer the question in the chat: "Go on" lets it continue (the repetition count starts afresh), "Stop here" ends it; or send a message saying what to do differently.'
          : 'Send a message to go on (the budget starts again), or raise limits.maxToolCallsPerTurn in settings.',
      ...(data ? { data } : {}),
    };
    return { code, message: `Not run: ${message}` };
  }
}
