/**
 * Rung 8, context-aware: oldString has ≥ 3 lines; a file window of exactly the same line count whose first and
 * last lines equal oldString's (trimmed, non-blank) and where at least half of the middle lines are equal after
 * trimming. The middle lines that differ are scored by similarity and the lowest score travels with the candidate,
 * so the loop's fidelity gate refuses a window whose differing lines are invented rather than drifted
 * (conformance case context-half-hallucinated: 3 of 5 equal, 2 invented → refused).
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { CONTEXT_EQUAL_SHARE, LINE_FLOOR, MIN_ANCHOR_LINES } from '../policy';
import { similarity } from '../similarity';
import { lineWindow } from './shared';

function* find(ctx: SearchContext): Generator<Candidate> {
  const n = ctx.oldLines.length;
  if (n < MIN_ANCHOR_LINES) return;
  const keys = ctx.oldLines.map((l) => l.trim());
  const firstKey = keys[0] ?? '';
  const lastKey = keys[n - 1] ?? '';
  if (!firstKey || !lastKey) return;
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    if (i + n > ctx.text.lineCount || ctx.text.trimmedLine(i + n - 1) !== lastKey) continue;
    if (!ctx.budget.spend(n)) return;
    let equal = 0;
    let min = 1;
    for (let k = 1; k < n - 1; k++) {
      const a = keys[k] ?? '';
      const b = ctx.text.trimmedLine(i + k);
      if (a === b) equal++;
      else min = Math.min(min, similarity(a, b, LINE_FLOOR, ctx.budget));
    }
    if (ctx.budget.exhausted) return;
    if (equal >= (n - 2) * CONTEXT_EQUAL_SHARE) {
      yield lineWindow(ctx, i, n, 'context-aware', { minLineSimilarity: min });
    }
  }
}

export const contextAware: Replacer = { name: 'context-aware', find };
