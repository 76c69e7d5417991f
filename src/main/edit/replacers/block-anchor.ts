/**
 * Rung 3, block-anchor: oldString has ≥ 3 lines; its first and last lines (trimmed, non-blank) anchor a window of
 * the file whose size is within ±25 % of oldString's line count; the middle lines are scored by Levenshtein
 * similarity (trimmed) and the mean must reach 0.65.
 *
 * Safer than opencode's: the non-blank lines of the window must pair one-to-one with oldString's (a line the
 * model never saw is never swallowed), anchors must be non-blank (a blank anchor fits anywhere), there is no
 * zero-threshold single-candidate case (B08), and a line below the per-line floor stops the window at once
 * (so random windows cost one or two distances). The lowest line similarity travels with the candidate for the
 * loop's fidelity gate. Several windows that pass are several places: the loop answers `ambiguous`.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { BLOCK_ANCHOR_THRESHOLD, LINE_FLOOR, MIN_ANCHOR_LINES, SIZE_TOLERANCE } from '../policy';
import { similarity } from '../similarity';
import { lineWindow } from './shared';

interface Score {
  min: number;
  mean: number;
}

/** Score file lines [first, last] against oldString's non-blank trimmed lines; undefined when they do not pair. */
function scoreWindow(ctx: SearchContext, first: number, last: number, oldKeys: readonly string[]): Score | undefined {
  const fileKeys: string[] = [];
  for (let i = first; i <= last; i++) {
    const t = ctx.text.trimmedLine(i);
    if (t.length > 0) fileKeys.push(t);
  }
  if (fileKeys.length !== oldKeys.length) return undefined;
  let min = 1;
  let sum = 0;
  for (let k = 1; k < oldKeys.length - 1; k++) {
    const s = similarity(oldKeys[k] ?? '', fileKeys[k] ?? '', LINE_FLOOR, ctx.budget);
    if (ctx.budget.exhausted || s < LINE_FLOOR) return undefined;
    min = Math.min(min, s);
    sum += s;
  }
  return { min, mean: sum / (oldKeys.length - 2) };
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
  for (const i of ctx.text.linesWithTrimmed(firstKey)) {
    for (let size = minSize; size <= maxSize && i + size <= ctx.text.lineCount; size++) {
      if (!ctx.budget.spend(1)) return;
      if (ctx.text.trimmedLine(i + size - 1) !== lastKey) continue;
      const score = scoreWindow(ctx, i, i + size - 1, oldKeys);
      if (ctx.budget.exhausted) return;
      if (score && score.mean >= BLOCK_ANCHOR_THRESHOLD) {
        yield lineWindow(ctx, i, size, 'block-anchor', { minLineSimilarity: score.min });
      }
    }
  }
}

export const blockAnchor: Replacer = { name: 'block-anchor', find };
