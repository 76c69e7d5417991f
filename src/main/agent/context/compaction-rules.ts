/**
 * The compaction rules of one turn, applied by the loop (DESIGN §11; the anchors' reported failures: 35
 * compactions in a row in one opencode report, 48 attempts in 76 minutes in a codex one):
 * - before a step, compact when the estimated request reaches window − max(output reserve, 20,000);
 * - a context-length error from the provider: compact once and retry the step once; a second is a typed error;
 * - a compaction that frees < 5% is stalled; after 2 stalls, or 3 automatic compactions without a successful model
 *   step between them, the turn stops with `compaction_stalled` and a message saying what to do.
 * Nothing here sends a message of its own to the model (never a synthetic "continue").
 */
import type { LanguageModel, ModelMessage } from 'ai';
import type { LandfallError } from '../../../shared/errors';
import type { SessionStore } from '../../session/store';
import { compactedHistory, type HistoryExtras, type HistoryUnit, type HistoryView } from './compaction-history';
import { compact, estimateRequest } from './compaction';
import { compactionThreshold, type WindowSpec } from './windows';

export const MAX_STALLS = 2;
export const MAX_AUTO_IN_ROW = 3;

export interface GuardInput {
  store: SessionStore;
  sessionId: string;
  model: LanguageModel;
  /** The model for summaries when a setting names one; else `model`. */
  summaryModel?: LanguageModel;
  /** The summary model's window, when it is not `model` (the summary request fits both windows). */
  summarySpec?: WindowSpec;
  system?: string;
  toolTokens: number;
  spec: WindowSpec;
  signal: AbortSignal;
  /** The change notices in force (context/turn-context.ts), read each time the history is built. */
  notices?: () => Map<string, string[]> | undefined;
  /** State re-sent after a compaction's summary (compaction-history.ts HistoryExtras). */
  afterSummary?: () => ModelMessage[];
  /**
   * The system text for a history whose compaction folds `folded` (the baseline rebuilt with the change notices it
   * folded, context/turn-context.ts TurnContext.systemFor); default `system` whatever is folded.
   */
  systemFor?: (folded: HistoryUnit[]) => string | undefined;
}

/** What a step sends: the history and the system text that goes with it (rebuilt after a compaction). */
export interface StepRequest {
  messages: ModelMessage[];
  system: string | undefined;
}

const STALLED_HINT =
  'Start a new session with a short statement of what is left, raise contextWindow for this model in settings if it is wrong, or undo a compaction and remove large outputs.';

/** The per-turn state of the rules (module docstring). */
export class CompactionGuard {
  private stalls = 0;
  private autoInRow = 0;
  constructor(private readonly input: GuardInput) {}

  /** The history as it is to be sent now, with its system text. */
  request(now = this.view()): StepRequest {
    return { messages: now.messages, system: this.systemOf(now) };
  }

  /** The system text that goes with `view` (GuardInput.systemFor). */
  private systemOf(view: HistoryView): string | undefined {
    return view.folded.length > 0 && this.input.systemFor ? this.input.systemFor(view.folded) : this.input.system;
  }

  private view(): HistoryView {
    const { store, sessionId } = this.input;
    const extras: HistoryExtras = { notices: this.input.notices?.(), afterSummary: this.input.afterSummary };
    return compactedHistory(store.messages(sessionId), (id) => store.messageText(id), extras);
  }

  /** Estimated tokens of the request that `request()` would make. */
  estimate(now = this.view()): number {
    return estimateRequest(this.systemOf(now), now.messages, this.input.toolTokens);
  }

  /** A model step answered without error: the run of automatic compactions is broken. */
  modelSucceeded(): void {
    this.autoInRow = 0;
  }

  /**
   * Before a step: compact when the trigger is reached. Answers the history to send, or an error when the turn
   * must stop.
   */
  async beforeStep(messageId: string): Promise<StepRequest | { error: LandfallError }> {
    const now = this.view();
    if (this.estimate(now) < compactionThreshold(this.input.spec)) return this.request(now);
    const error = await this.run(messageId, 'auto', now);
    return error ? { error } : this.request();
  }

  /** After a context-length error: compact (the caller retries once). Answers an error when the turn must stop. */
  async afterOverflow(messageId: string): Promise<LandfallError | undefined> {
    return this.run(messageId, 'overflow');
  }

  private async run(
    messageId: string,
    trigger: 'auto' | 'overflow',
    current?: HistoryView,
  ): Promise<LandfallError | undefined> {
    this.autoInRow++;
    const r = await compact(
      { ...this.input, model: this.input.summaryModel ?? this.input.model, messageId, trigger },
      current,
    );
    if (!r.ok && !r.stalled) return r.error;
    if (r.stalled) this.stalls++;
    if (this.stalls >= MAX_STALLS)
      return {
        code: 'compaction_stalled',
        message: `Compacting the history no longer frees enough room (${this.stalls} compactions freed less than 5% each); the turn was stopped.`,
        hint: STALLED_HINT,
      };
    if (this.autoInRow >= MAX_AUTO_IN_ROW)
      return {
        code: 'compaction_stalled',
        message: `${this.autoInRow} compactions in a row ran without a successful model step; the turn was stopped.`,
        hint: STALLED_HINT,
      };
    return undefined;
  }
}
