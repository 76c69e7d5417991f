/**
 * Rung 5, indentation-flexible: oldString equals a window of whole file lines once the smallest common
 * indentation is removed from both (relative indentation must agree). Stricter than line-trimmed, which runs
 * first (every window equal after dedent is equal after trimming, so it is pre-checked that cheap way); it is
 * kept so the ladder is opencode's, and it never widens what can land.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { indentOf } from '../text';
import { lineWindow, trimmedAt, windowEquals } from './shared';

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim().length > 0).map((l) => indentOf(l).length);
  const min = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => (l.trim().length > 0 ? l.slice(min) : ''));
}

function* find(ctx: SearchContext): Generator<Candidate> {
  const n = ctx.oldLines.length;
  if (ctx.old.trim().length === 0) return;
  let want: string | undefined;
  const keys = ctx.oldLines.map((l) => l.trim());
  const firstKey = keys[0] ?? '';
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    // equal after dedent implies equal after trim: the cheap early-exit check first
    if (!windowEquals(ctx, i, keys, trimmedAt(ctx))) {
      if (ctx.budget.exhausted) return;
      continue;
    }
    const window = Array.from({ length: n }, (_, k) => ctx.text.line(i + k));
    want ??= dedent(ctx.oldLines).join('\n');
    if (dedent(window).join('\n') === want) yield lineWindow(ctx, i, n, 'indentation-flexible');
  }
}

export const indentationFlexible: Replacer = { name: 'indentation-flexible', kind: 'cosmetic', find };
