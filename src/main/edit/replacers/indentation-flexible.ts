/**
 * Rung 5, indentation-flexible: oldString equals a window of whole file lines once the smallest common
 * indentation is removed from both (relative indentation must agree). Stricter than line-trimmed, which runs
 * first; it is kept so the ladder is opencode's, and it never widens what can land.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { indentOf } from '../text';
import { lineWindow } from './shared';

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim().length > 0).map((l) => indentOf(l).length);
  const min = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => (l.trim().length > 0 ? l.slice(min) : ''));
}

function* find(ctx: SearchContext): Generator<Candidate> {
  const n = ctx.oldLines.length;
  const want = dedent(ctx.oldLines).join('\n');
  if (want.trim().length === 0) return;
  const firstKey = (ctx.oldLines[0] ?? '').trim();
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    if (i + n > ctx.text.lineCount) continue;
    if (!ctx.budget.spend(n)) return;
    const window = Array.from({ length: n }, (_, k) => ctx.text.line(i + k));
    if (dedent(window).join('\n') === want) yield lineWindow(ctx, i, n, 'indentation-flexible');
  }
}

export const indentationFlexible: Replacer = { name: 'indentation-flexible', find };
