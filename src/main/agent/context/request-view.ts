/**
 * Reading the ledger (session/ledger.ts): a request's size in tokens by category, what changed against the request
 * before it, and the tokens in use (the context meter's number).
 *
 * Categories: `system` — the fixed system prompt (the first `systemPromptChars` characters of the system text);
 * `instructions` — the rest of the system text (the baseline: environment, date, instruction files) and every
 * change notice; `tools` — the tool definitions; `toolResults` — tool messages; `history` — everything else
 * (user and assistant messages). Counts are the estimator's (tokens.ts); the provider's usage is shown beside them.
 */
import type { LedgerBlob, LedgerEntry } from '../../session/ledger';
import type { ContextStep } from '../../../shared/context-schemas';
import { isNotice, messageRole } from './request-text';
import { estimateTokens } from './tokens';
import { windowOf } from './window-fallback';
import type { WindowLookup } from './window-fallback';

/** Tokens by category of one ledger entry (module docstring). */
export function tokensByCategory(e: LedgerEntry, systemPromptChars: number): ContextStep['tokens'] {
  const systemText = JSON.parse(e.system.json) as string;
  const fixed = systemText.slice(0, systemPromptChars);
  const system = estimateTokens(fixed);
  let instructions = e.system.tokens - system;
  let history = 0;
  let toolResults = 0;
  for (const m of e.messages) {
    const value = JSON.parse(m.json) as unknown;
    if (isNotice(value)) instructions += m.tokens;
    else if (messageRole(value) === 'tool') toolResults += m.tokens;
    else history += m.tokens;
  }
  instructions = Math.max(0, instructions);
  const tools = e.tools.tokens;
  return {
    system,
    instructions,
    tools,
    history,
    toolResults,
    total: system + instructions + tools + history + toolResults,
  };
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

const bytes = (b: LedgerBlob): number => Buffer.byteLength(b.json);

/**
 * The share of `cur`'s bytes that `prev` started with, comparing tools, then system, then messages (each as its
 * JSON; the order providers cache in). Pieces equal by hash count whole; the first differing piece counts its
 * common leading characters; nothing after it counts.
 */
export function sharedPrefixShare(prev: LedgerEntry, cur: LedgerEntry): number {
  const a = [prev.tools, prev.system, ...prev.messages];
  const b = [cur.tools, cur.system, ...cur.messages];
  const total = b.reduce((s, x) => s + bytes(x), 0);
  let shared = 0;
  for (let i = 0; i < b.length; i++) {
    const x = a[i];
    const y = b[i] as LedgerBlob;
    if (x === undefined) break;
    if (x.hash === y.hash) {
      shared += bytes(y);
      continue;
    }
    shared += Buffer.byteLength(y.json.slice(0, commonPrefix(x.json, y.json)));
    break;
  }
  return total === 0 ? 1 : shared / total;
}

/** What changed from `prev` to `cur` (RequestChangeSchema). */
export function requestChange(prev: LedgerEntry, cur: LedgerEntry): NonNullable<ContextStep['change']> {
  let kept = 0;
  while (
    kept < prev.messages.length &&
    kept < cur.messages.length &&
    prev.messages[kept]?.hash === cur.messages[kept]?.hash
  )
    kept++;
  return {
    previous: prev.seq,
    systemChanged: prev.system.hash !== cur.system.hash,
    toolsChanged: prev.tools.hash !== cur.tools.hash,
    keptMessages: kept,
    droppedMessages: prev.messages.length - kept,
    addedMessages: cur.messages.length - kept,
    sharedPrefix: sharedPrefixShare(prev, cur),
  };
}

/**
 * Tokens in use after request `e` — the context meter's number: the provider's reported input plus output when
 * it reported a positive input count, else the estimate of the request (`estimated`) plus the reported output
 * (0 when none). A reported input of 0 for a request that holds a system prompt is no report (the replay provider
 * and some local servers send zeros).
 */
export function tokensInUse(e: LedgerEntry, estimated: number): number {
  const u = e.usage;
  if (u?.input !== undefined && u.input > 0) return u.input + (u.output ?? 0);
  return estimated + (u?.output ?? 0);
}

/** The full view of ledger entry `cur` (with `prev`, the request before it, when there is one). */
export function stepView(
  cur: LedgerEntry,
  prev: LedgerEntry | undefined,
  steps: number,
  systemPromptChars: number,
  lookup?: WindowLookup,
): ContextStep {
  const tokens = tokensByCategory(cur, systemPromptChars);
  const view: ContextStep = {
    step: cur.seq,
    steps,
    messageId: cur.messageId,
    turnStep: cur.step,
    time: cur.time,
    model: cur.model,
    window: windowOf(cur.model, lookup),
    tokens,
    inUse: tokensInUse(cur, tokens.total),
    request: {
      system: JSON.parse(cur.system.json) as string,
      tools: JSON.parse(cur.tools.json) as unknown[],
      messages: cur.messages.map((m) => JSON.parse(m.json) as unknown),
    },
  };
  if (cur.usage) view.usage = cur.usage;
  if (prev) view.change = requestChange(prev, cur);
  return view;
}
