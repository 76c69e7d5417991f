/**
 * Compaction (DESIGN §11): when the request nears the window, the older history is summarised by a model and the
 * most recent ~15,000 tokens stay verbatim, cut at a unit boundary (a user message or a whole assistant step:
 * never between a tool call and its result). A second compaction summarises the previous summary together with
 * what followed it (rolling). Nothing is deleted: the summary is a stored `compaction` part; the raw messages and
 * the event log stay, and undoing the part (setting `undone`) gives back the request exactly as it was.
 *
 * Rules that bound it (compaction-rules.ts applies them in the loop): a compaction freeing < 5% of the request
 * is stalled; after 2 stalls, or 3 automatic compactions without a successful model step between, the turn stops.
 */
import { streamText } from 'ai';
import type { LanguageModel, ModelMessage } from 'ai';
import type { LandfallError } from '../../../shared/errors';
import type { SessionStore } from '../../session/store';
import { newId } from '../../session/ids';
import { classifyProviderError } from '../retry';
import { compactedHistory, summaryMessage } from './compaction-history';
import type { CompactionPart, HistoryUnit, HistoryView } from './compaction-history';
import { summaryRequest, SUMMARY_SYSTEM, toolOutputTokens } from './compaction-request';
import { SUMMARY_PROTECT_TOKENS } from './summary-outputs';
import { estimateTokens } from './tokens';
import { compactionThreshold, type WindowSpec } from './windows';

/** Tokens of the most recent history kept verbatim. */
export const KEEP_RECENT_TOKENS = 15_000;
/** A compaction that frees less than this share of the request is stalled. */
export const STALL_SHARE = 0.05;

/**
 * Counts of message JSON already seen (the history repeats from step to step; counting it again each step was
 * most of a long session's time). Bounded: cleared when it holds more than 20,000 entries.
 */
const counted = new Map<string, number>();

/** estimateTokens of one message as JSON, remembered. */
function messageTokens(m: ModelMessage): number {
  const json = JSON.stringify(m);
  let n = counted.get(json);
  if (n === undefined) {
    if (counted.size > 20_000) counted.clear();
    n = estimateTokens(json);
    counted.set(json, n);
  }
  return n;
}

/**
 * Estimated tokens of a request: system prompt, tool definitions (pre-counted) and each message as JSON (the
 * shared estimator, tokens.ts, summed per message).
 */
export function estimateRequest(system: string | undefined, messages: ModelMessage[], toolTokens: number): number {
  return estimateTokens(system ?? '') + toolTokens + messages.reduce((n, m) => n + messageTokens(m), 0);
}

/** Tokens of each unit (its messages as JSON, as estimateRequest counts them). */
function unitTokens(u: HistoryUnit): number {
  return u.messages.reduce((n, m) => n + messageTokens(m), 0);
}

/**
 * Where to cut `visible` (the units sent verbatim now): the index of the first unit kept, so the kept suffix holds
 * at most `keep` tokens (but always the last unit with content) and at least one unit is folded; undefined when
 * nothing can be folded (one unit or none).
 */
export function keptFromIndex(all: HistoryUnit[], keep = KEEP_RECENT_TOKENS): number | undefined {
  // A step that has sent nothing yet (the one about to be sent) is kept and does not count as history to fold.
  let end = all.length;
  while (end > 0 && (all[end - 1] as HistoryUnit).messages.length === 0) end--;
  const visible = all.slice(0, end);
  let used = 0;
  let at = visible.length;
  while (at > 0) {
    const t = unitTokens(visible[at - 1] as HistoryUnit);
    if (at < visible.length && used + t > keep) break;
    used += t;
    at--;
  }
  if (at === 0) at = visible.length > 1 ? 1 : 0;
  return at >= 1 ? at : undefined;
}

export interface CompactInput {
  store: SessionStore;
  sessionId: string;
  /** The assistant message the compaction part is stored in. */
  messageId: string;
  /** The model that writes the summary (the session's, or a smaller one a setting names). */
  model: LanguageModel;
  system?: string;
  toolTokens: number;
  spec: WindowSpec;
  /** The summary model's window when `model` is not the session's: the summary request fits it too. */
  summarySpec?: WindowSpec;
  trigger: CompactionPart['trigger'];
  signal: AbortSignal;
  /**
   * As in compaction-rules.ts GuardInput: the notices in force, the state re-sent after a summary, the system text
   * for a history that folds some units (for the token counts before and after).
   */
  notices?: () => Map<string, string[]> | undefined;
  afterSummary?: () => ModelMessage[];
  systemFor?: (folded: HistoryUnit[]) => string | undefined;
}

/** The system text a request with `folded` units folded is sent with (CompactInput.systemFor, else `system`). */
function systemWith(input: CompactInput, folded: HistoryUnit[]): string | undefined {
  return folded.length > 0 && input.systemFor ? input.systemFor(folded) : input.system;
}

export type CompactResult =
  | { ok: true; part: CompactionPart; stalled: boolean }
  | { ok: false; stalled: true; reason: string }
  | { ok: false; stalled: false; error: LandfallError };

function view(input: CompactInput): HistoryView {
  const { store, sessionId } = input;
  return compactedHistory(store.messages(sessionId), (id) => store.messageText(id), {
    notices: input.notices?.(),
    afterSummary: input.afterSummary,
  });
}

async function summarise(input: CompactInput, prompt: string): Promise<{ text: string } | { error: LandfallError }> {
  try {
    const result = streamText({
      model: input.model,
      system: SUMMARY_SYSTEM,
      messages: [{ role: 'user', content: prompt }],
      maxRetries: 0,
      abortSignal: input.signal,
      onError: () => undefined,
    });
    const text = (await result.text).trim();
    if (text === '')
      return {
        error: {
          code: 'provider_error',
          message: 'The model wrote an empty summary.',
          hint: 'Try /compact again, or name another summary model in settings.',
        },
      };
    return { text };
  } catch (e) {
    return { error: classifyProviderError(e) };
  }
}

/**
 * Compact the session's history now (module docstring; `current`: the view just built, to save reading the
 * store again). Answers the stored part (and whether it freed < 5%), a
 * stall when nothing can be folded, or the summary request's provider error (nothing stored then).
 */
export async function compact(input: CompactInput, current?: HistoryView): Promise<CompactResult> {
  const before = current ?? view(input);
  const tokensBefore = estimateRequest(systemWith(input, before.folded), before.messages, input.toolTokens);
  const at = keptFromIndex(before.visible);
  if (at === undefined)
    return { ok: false, stalled: true, reason: 'nothing older than the most recent history to fold' };
  const kept = before.visible[at] as HistoryUnit;
  const budget = Math.min(
    compactionThreshold(input.spec),
    input.summarySpec ? compactionThreshold(input.summarySpec) : Number.POSITIVE_INFINITY,
  );
  // the newest tool output stays whole, counted over the whole history: the kept part's output first
  const protect = Math.max(0, SUMMARY_PROTECT_TOKENS - toolOutputTokens(before.visible.slice(at)));
  const request = summaryRequest(before.visible.slice(0, at), before.active?.summary, budget, protect);
  const summary = await summarise(input, request.prompt);
  if ('error' in summary) return { ok: false, stalled: false, error: summary.error };
  const all = [...before.folded, ...before.visible.slice(0, at)];
  const part: CompactionPart = {
    id: newId('prt'),
    sessionId: input.sessionId,
    messageId: input.messageId,
    time: Date.now(),
    type: 'compaction',
    summary: summary.text,
    keptFrom: kept.id,
    folded: [...new Set(all.map((u) => u.messageId))],
    tokensBefore,
    tokensAfter: 0,
    trigger: input.trigger,
  };
  const state = input.afterSummary?.() ?? [];
  const afterMessages = [summaryMessage(part, all), ...state, ...before.visible.slice(at).flatMap((u) => u.messages)];
  part.tokensAfter = estimateRequest(systemWith(input, all), afterMessages, input.toolTokens);
  input.store.putPart(part);
  return { ok: true, part, stalled: tokensBefore - part.tokensAfter < tokensBefore * STALL_SHARE };
}
