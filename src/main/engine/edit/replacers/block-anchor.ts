/**
 * Rung 3, block-anchor: oldString has ≥ 3 lines; its first and last lines (trimmed, non-blank) anchor a window of
 * the file whose size is within ±25 % of oldString's line count; the middle lines are scored by Levenshtein
 * similarity (trimmed) and the mean must reach 0.65.
 *
 * Safer than opencode's: the non-blank lines of the window must pair one-to-one with oldString's (a line the
 * model never saw is never swallowed), anchors must be non-blank (a blank anchor fits anywhere), there is no
 * zero-threshold single-candidate case (fixtures/bugs/README.md B08), and a line below the per-line floor stops the window at once
 * (so random windows cost one or two distances). The lowest line similarity travels with the candidate for the
 * loop's fidelity gate. Several windows that pass are several places: the loop answers `ambiguous`.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { BLOCK_ANCHOR_THRESHOLD, LINE_FLOOR, MIN_ANCHOR_LINES, SIZE_TOLERANCE } from '../policy';
import { LINE_VISIT } from '../similarity';
import { lineWindow } from './shared';
import { lowerBound } from '../../text/binary-search';

interface Score {
  min: number;
  mean: number;
}

/**
 * Score file lines [first, last] against oldString's non-blank trimmed lines, pairing non-blank lines in order
 * and stopping at the first pair below the floor (most windows die on their first middle line); undefined when
 * the lines do not pair one-to-one or a pair fails.
 */
function scoreWindow(ctx: SearchContext, first: number, last: number, oldKeys: readonly string[]): Score | undefined {
  let min = 1;
  let sum = 0;
  let k = 0;
  for (let i = first; i <= last; i++) {
    if (!ctx.budget.spend(LINE_VISIT)) return undefined;
    const have = ctx.text.trimmedLine(i);
    if (have.length === 0) continue;
    const want = oldKeys[k];
    if (want === undefined) return undefined;
    if (k > 0 && k < oldKeys.length - 1) {
      const s = ctx.lineSimilarity(want, i);
      if (ctx.budget.exhausted || s < LINE_FLOOR) return undefined;
      min = Math.min(min, s);
      sum += s;
    }
    k++;
  }
  return k === oldKeys.length ? { min, mean: sum / (oldKeys.length - 2) } : undefined;
}

/** Windows whose last-anchor candidates are read line by line rather than searched for (policy of `find`). */
const DIRECT_LINES = 4096;

/**
 * Lines in [i + minSize - 1, i + maxSize - 1] whose trimmed text is `lastKey`: from the sorted list `ends` (binary
 * search) when given, else read one by one (each read charged to the budget).
 */
function lastAnchors(
  ctx: SearchContext,
  i: number,
  minSize: number,
  maxSize: number,
  lastKey: string,
  ends: readonly number[] | undefined,
): number[] {
  const from = i + minSize - 1;
  const to = Math.min(i + maxSize - 1, ctx.text.lineCount - 1);
  const out: number[] = [];
  if (ends) {
    for (let e = lowerBound(ends, from); e < ends.length && (ends[e] ?? 0) <= to; e++) out.push(ends[e] ?? 0);
    return out;
  }
  for (let j = from; j <= to && ctx.budget.spend(LINE_VISIT); j++) if (ctx.text.trimmedLine(j) === lastKey) out.push(j);
  return out;
}

function* find(ctx: SearchContext): Generator<Candidate> {
  const n = ctx.oldLines.length;
  if (n < MIN_ANCHOR_LINES) return;
  const firstKey = (ctx.oldLines[0] ?? '').trim();
  const lastKey = (ctx.oldLines[n - 1] ?? '').trim();
  const oldKeys = ctx.oldLines.map((l) => l.trim()).filter((t) => t.length > 0);
  if (!firstKey || !lastKey || oldKeys.length < MIN_ANCHOR_LINES) return;
  const minSize = Math.max(MIN_ANCHOR_LINES, Math.floor(n * (1 - SIZE_TOLERANCE)));
  const maxSize = Math.ceil(n * (1 + SIZE_TOLERANCE));
  const starts = ctx.text.linesWithTrimmed(firstKey);
  // few windows: their possible last lines are read directly; many: one search of the file for the last anchor
  const direct = starts.length * (maxSize - minSize + 1) <= DIRECT_LINES;
  const ends = direct ? undefined : ctx.text.linesWithTrimmed(lastKey);
  for (const i of starts) {
    for (const last of lastAnchors(ctx, i, minSize, maxSize, lastKey, ends)) {
      // non-blank lines must pair one-to-one: a window with another count cannot fit (O(1) check)
      if (ctx.text.nonBlankBetween(i, last) !== oldKeys.length) continue;
      const score = scoreWindow(ctx, i, last, oldKeys);
      if (ctx.budget.exhausted) return;
      if (score && score.mean >= BLOCK_ANCHOR_THRESHOLD) {
        yield lineWindow(ctx, i, last - i + 1, 'block-anchor', { minLineSimilarity: score.min });
      }
    }
  }
}

export const blockAnchor: Replacer = { name: 'block-anchor', kind: 'similarity', find };
