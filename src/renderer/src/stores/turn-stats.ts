/**
 * Tokens and time per turn and per session, from the step-finish parts (the provider's reported usage, stored
 * with each step) — pure. A turn's time runs from its first step-start to its last step-finish.
 */
import type { MessageWithParts } from '../../../shared/contract';

export interface TurnStats {
  input: number;
  output: number;
  /** ms from the first step-start to the last step-finish; 0 while the turn has not finished a step. */
  ms: number;
  /** True when at least one step reported usage (otherwise the counts are unknown, not zero). */
  reported: boolean;
}

/** The stats of one assistant message (one turn). */
export function turnStats(message: MessageWithParts): TurnStats {
  let input = 0;
  let output = 0;
  let reported = false;
  let first: number | undefined;
  let lastEnd: number | undefined;
  for (const p of message.parts) {
    if (p.type === 'step-start' && first === undefined) first = p.time;
    if (p.type !== 'step-finish') continue;
    lastEnd = p.time;
    if (p.usage) {
      reported = true;
      input += p.usage.input;
      output += p.usage.output;
    }
  }
  const ms = first !== undefined && lastEnd !== undefined ? Math.max(0, lastEnd - first) : 0;
  return { input, output, ms, reported };
}

/** The sum over a session's assistant messages. */
export function sessionStats(messages: readonly MessageWithParts[]): TurnStats {
  const total: TurnStats = { input: 0, output: 0, ms: 0, reported: false };
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const t = turnStats(m);
    total.input += t.input;
    total.output += t.output;
    total.ms += t.ms;
    total.reported ||= t.reported;
  }
  return total;
}

/** "1.2k in · 340 out · 4.1 s" (tokens as reported; "tokens not reported" when none were). */
export function statsText(s: TurnStats): string {
  const n = (v: number): string =>
    v >= 10_000 ? `${Math.round(v / 1000)}k` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : String(v);
  const time =
    s.ms >= 60_000
      ? `${Math.floor(s.ms / 60_000)}m ${Math.round((s.ms % 60_000) / 1000)}s`
      : `${(s.ms / 1000).toFixed(1)} s`;
  return s.reported ? `${n(s.input)} in · ${n(s.output)} out · ${time}` : `tokens not reported · ${time}`;
}
