/**
 * Rung 2, line-trimmed: every line of oldString equals the file line at the same position once both are trimmed.
 * Tolerates indentation and trailing-whitespace drift; the span is the whole lines, and the loop rebases
 * newString's indentation when the model shifted old and new alike.
 * Work: one lookup of the first trimmed line in the trimmed-line index, then one comparison per line per hit.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { lineWindow, trimmedAt, windowEquals } from './shared';

const trim = (l: string): string => l.trim();

function* find(ctx: SearchContext): Generator<Candidate> {
  const keys = ctx.oldLines.map(trim);
  if (keys.every((k) => k.length === 0)) return;
  const firstKey = keys[0] ?? '';
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    if (ctx.budget.exhausted) return;
    if (windowEquals(ctx, i, keys, trimmedAt(ctx))) yield lineWindow(ctx, i, keys.length, 'line-trimmed');
  }
}

export const lineTrimmed: Replacer = { name: 'line-trimmed', kind: 'cosmetic', find };
