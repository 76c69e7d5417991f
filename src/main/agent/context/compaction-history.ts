/**
 * The history as the model is sent it once compactions exist (DESIGN §11). The stored conversation is cut into
 * units — a user message, or one assistant step (its parts from one step-start to the next: text, tool calls and
 * their results) — so a cut never separates a tool call from its result. The latest compaction part that is not
 * undone and whose `keptFrom` unit still exists applies: the units before `keptFrom` are replaced by ONE user
 * message holding the summary and, verbatim, the user's own messages of that part (the task and instructions are
 * never left to the summary's prose); the units from `keptFrom` on follow as stored. Without such a compaction
 * the result is exactly `buildHistory` (history.ts), byte for byte — which is what undo relies on.
 */
import type { ModelMessage } from 'ai';
import type { CompactionFields, MessageWithParts, Part } from '../../../shared/model';
import { stepMessages } from '../history';

export type CompactionPart = Extract<Part, { type: 'compaction' }>;

/** One cut-able piece of the history. `id`: the user message's id or the step's step-start part id. */
export interface HistoryUnit {
  id: string;
  messageId: string;
  role: 'user' | 'assistant';
  messages: ModelMessage[];
  /** For a user unit, its prompt text. */
  text?: string;
}

/** Each user message kept verbatim in a summary message is cut to this many characters (and says so). */
export const VERBATIM_USER_CHARS = 4_000;
/** All verbatim user messages of a summary message together (characters): the first, then the latest that fit. */
export const VERBATIM_TOTAL_CHARS = 12_000;

/** Every unit of the stored conversation, in order, and the compaction parts found (store order). */
export function historyUnits(
  messages: MessageWithParts[],
  userText: (messageId: string) => string,
  notices?: Map<string, string[]>,
): { units: HistoryUnit[]; compactions: CompactionPart[] } {
  const units: HistoryUnit[] = [];
  const compactions: CompactionPart[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      const text = userText(m.id);
      units.push({ id: m.id, messageId: m.id, role: 'user', text, messages: [{ role: 'user', content: text }] });
      continue;
    }
    let step: Part[] = [];
    let id = m.id;
    const flush = (): void => {
      if (step.length === 0) return;
      // a change notice (context/turn-context.ts) stays with the step it preceded, as buildHistory places it
      const told: ModelMessage[] = (notices?.get(id) ?? []).map((text) => ({ role: 'user', content: text }));
      units.push({ id, messageId: m.id, role: 'assistant', messages: [...told, ...stepMessages(step)] });
    };
    for (const p of m.parts) {
      if (p.type === 'compaction') compactions.push(p);
      if (p.type === 'step-start') {
        flush();
        step = [];
        id = p.id;
      }
      step.push(p);
    }
    flush();
  }
  return { units, compactions };
}

/** The compaction in force: the latest not undone whose kept unit exists. */
export function activeCompaction(units: HistoryUnit[], compactions: CompactionPart[]): CompactionPart | undefined {
  const ids = new Set(units.map((u) => u.id));
  for (let i = compactions.length - 1; i >= 0; i--) {
    const c = compactions[i] as CompactionPart;
    if (c.undone !== true && ids.has(c.keptFrom)) return c;
  }
  return undefined;
}

function verbatimUsers(folded: HistoryUnit[]): string[] {
  const texts = folded.filter((u) => u.role === 'user').map((u) => u.text ?? '');
  const cut = texts.map((t) =>
    t.length <= VERBATIM_USER_CHARS ? t : `${t.slice(0, VERBATIM_USER_CHARS)}\n[… cut: ${t.length} characters in all]`,
  );
  if (cut.length === 0) return [];
  const out = [cut[0] as string];
  let used = out[0]?.length ?? 0;
  const latest: string[] = [];
  for (let i = cut.length - 1; i >= 1; i--) {
    const t = cut[i] as string;
    if (used + t.length > VERBATIM_TOTAL_CHARS) break;
    latest.unshift(t);
    used += t.length;
  }
  const skipped = cut.length - 1 - latest.length;
  if (skipped > 0) out.push(`[${skipped} more user message(s) of this part are in the summary only]`);
  return [...out, ...latest];
}

/** The one user message that stands for the folded units (summary + the user's own words). */
export function summaryMessage(c: Pick<CompactionFields, 'summary'>, folded: HistoryUnit[]): ModelMessage {
  const users = verbatimUsers(folded);
  const quoted = users.map((t) => `<user-message>\n${t}\n</user-message>`).join('\n');
  const text =
    `[The earlier part of this session was compacted to save context. Its summary follows; the user's own ` +
    `messages of that part follow it word for word.]\n<summary>\n${c.summary}\n</summary>` +
    (quoted === '' ? '' : `\n${quoted}`);
  return { role: 'user', content: text };
}

export interface HistoryView {
  /** What the model is sent. */
  messages: ModelMessage[];
  /** The units sent verbatim (all of them without a compaction). */
  visible: HistoryUnit[];
  /** The units the active compaction folds (empty without one). */
  folded: HistoryUnit[];
  active?: CompactionPart;
}

/**
 * What the history is built with besides the stored messages: `notices`, the change notices by the step-start part
 * they precede (context/turn-context.ts); `afterSummary`, the state re-sent from the store right after a
 * compaction's summary instead of being left to its prose (the todo list; the instructions in force go into the
 * system text, turn-context.ts systemFor).
 */
export interface HistoryExtras {
  notices?: Map<string, string[]>;
  afterSummary?: () => ModelMessage[];
}

/** The history to send (module docstring). */
export function compactedHistory(
  messages: MessageWithParts[],
  userText: (messageId: string) => string,
  extras: HistoryExtras = {},
): HistoryView {
  const { units, compactions } = historyUnits(messages, userText, extras.notices);
  const active = activeCompaction(units, compactions);
  if (active === undefined) return { messages: units.flatMap((u) => u.messages), visible: units, folded: [] };
  const at = units.findIndex((u) => u.id === active.keptFrom);
  const folded = units.slice(0, at);
  const visible = units.slice(at);
  const state = extras.afterSummary?.() ?? [];
  return {
    messages: [summaryMessage(active, folded), ...state, ...visible.flatMap((u) => u.messages)],
    visible,
    folded,
    active,
  };
}
