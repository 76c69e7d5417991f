/**
 * Rung 8, context-aware: oldString has ≥ 3 lines; a file window of exactly the same line count whose first and
 * last lines equal oldString's (trimmed, non-blank) and where at least half of the middle lines are equal after
 * trimming. The middle lines that differ are scored by similarity and the lowest score travels with the candidate,
 * so the loop's fidelity gate refuses a window whose differing lines are invented rather than drifted
 * (conformance case context-half-hallucinated: 3 of 5 equal, 2 invented → refused). A window stops being scored
 * as soon as too many lines differ or one differing line is below the floor.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { CONTEXT_EQUAL_SHARE, LINE_FLOOR, MIN_ANCHOR_LINES } from '../policy';
import { LINE_VISIT } from '../similarity';
import { lineWindow } from './shared';

/** Lowest similarity of the differing middle lines of the window at `i`, or undefined when it cannot fit. */
function scoreWindow(ctx: SearchContext, i: number, keys: readonly string[]): number | undefined {
  const n = keys.length;
  const allowedDifferent = Math.floor((n - 2) * (1 - CONTEXT_EQUAL_SHARE));
  let different = 0;
  let min = 1;
  for (let k = 1; k < n - 1; k++) {
    if (!ctx.budget.spend(LINE_VISIT)) return undefined;
    const a = keys[k] ?? '';
    const b = ctx.text.trimmedLine(i + k);
    if (a === b) continue;
    different++;
    // a differing line below the floor fails the fidelity gate anyway: stop paying for this window
    min = Math.min(min, ctx.lineSimilarity(a, i + k));
    if (different > allowedDifferent || min < LINE_FLOOR || ctx.budget.exhausted) return undefined;
  }
  return min;
}

function* find(ctx: SearchContext): Generator<Candidate> {
  const n = ctx.oldLines.length;
  if (n < MIN_ANCHOR_LINES) return;
  const keys = ctx.oldLines.map((l) => l.trim());
  const firstKey = keys[0] ?? '';
  const lastKey = keys[n - 1] ?? '';
  if (!firstKey || !lastKey) return;
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    if (i + n > ctx.text.lineCount || ctx.text.trimmedLine(i + n - 1) !== lastKey) continue;
    const min = scoreWindow(ctx, i, keys);
    if (ctx.budget.exhausted) return;
    if (min !== undefined) yield lineWindow(ctx, i, n, 'context-aware', { minLineSimilarity: min });
  }
}

export const contextAware: Replacer = { name: 'context-aware', kind: 'similarity', find };
