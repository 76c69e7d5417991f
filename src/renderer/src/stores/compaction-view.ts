/**
 * What the chat's compaction marker shows (pure): the one line ("Context compacted · 48,210 → 6,904 tokens"), and
 * the messages the summary stands for, each as its role and the start of its text, in session order.
 */
import type { MessageWithParts, Part } from '../../../shared/contract';

export type CompactionPartView = Extract<Part, { type: 'compaction' }>;

/** One folded message as the marker lists it. `text`: its first text, cut to 120 characters ('' when none). */
export interface FoldedEntry {
  id: string;
  role: 'user' | 'assistant';
  text: string;
}

const tokens = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The marker's line; `undone` says the compaction no longer applies (tokens are estimates of the request). */
export function markerLine(part: CompactionPartView): string {
  const head = part.undone === true ? 'Compaction undone' : 'Context compacted';
  return `${head} · ${tokens(part.tokensBefore)} → ${tokens(part.tokensAfter)} tokens`;
}

/** The folded messages still in `messages` (a message removed since — a revert — is left out). */
export function foldedEntries(part: CompactionPartView, messages: MessageWithParts[]): FoldedEntry[] {
  const folded = new Set(part.folded);
  return messages
    .filter((m) => folded.has(m.id))
    .map((m) => {
      const first = m.parts.find((p) => p.type === 'text');
      const text = first?.type === 'text' ? first.text.trim().replace(/\s+/g, ' ') : '';
      return { id: m.id, role: m.role, text: text.length > 120 ? `${text.slice(0, 119)}…` : text };
    });
}
