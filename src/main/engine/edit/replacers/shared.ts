/**
 * Helpers the line-based replacers share: turning a window of file lines into a candidate, and the normalisations
 * (trim, whitespace collapse) they compare lines in.
 */
import type { Candidate, Distortion, RungName, SearchContext } from '../types';
import { LINE_VISIT } from '../similarity';

/** Collapse every whitespace run to one space and trim: the whitespace-normalized comparison form of a line. */
export function collapse(line: string): string {
  const t = line.trim();
  // most lines have single spaces only: nothing to collapse, no copy
  return /[^\S ]| {2}/.test(t) ? t.replace(/\s+/g, ' ') : t;
}

/**
 * A candidate covering file lines [first, first + count) (whole lines, line break of the last one excluded).
 * When oldString ended with a line break, the `trailing_newline` distortion tells the loop so.
 */
export function lineWindow(
  ctx: SearchContext,
  first: number,
  count: number,
  rung: RungName,
  extra: { matched?: string; distortions?: Distortion[]; minLineSimilarity?: number } = {},
): Candidate {
  const distortions = [...(extra.distortions ?? [])];
  if (ctx.oldEndsWithNewline) distortions.push({ kind: 'trailing_newline' });
  const candidate: Candidate = {
    start: ctx.text.lineStarts[first] ?? 0,
    end: ctx.text.lineEnd(first + count - 1),
    rung,
    matched: extra.matched ?? ctx.oldLines.join('\n'),
    lineAligned: true,
    distortions,
  };
  if (extra.minLineSimilarity !== undefined) candidate.minLineSimilarity = extra.minLineSimilarity;
  return candidate;
}

/**
 * True when file lines [first, first + keys.length) equal `keys` once read through `lineAt` (e.g. trimmed).
 * Stops at the first difference; every line compared is charged to the budget (false once it is spent).
 */
export function windowEquals(
  ctx: SearchContext,
  first: number,
  keys: readonly string[],
  lineAt: (i: number) => string,
): boolean {
  if (first < 0 || first + keys.length > ctx.text.lineCount) return false;
  for (let k = 0; k < keys.length; k++) {
    if (!ctx.budget.spend(LINE_VISIT) || lineAt(first + k) !== keys[k]) return false;
  }
  return true;
}

/**
 * windowEquals with oldString's keys computed on demand (`keyAt(k)`, k < count): for keys that cost a regex each,
 * so a window failing on its first line never pays for the rest.
 */
export function windowMatches(
  ctx: SearchContext,
  first: number,
  count: number,
  keyAt: (k: number) => string,
  lineAt: (i: number) => string,
): boolean {
  if (first < 0 || first + count > ctx.text.lineCount) return false;
  for (let k = 0; k < count; k++) {
    if (!ctx.budget.spend(LINE_VISIT) || lineAt(first + k) !== keyAt(k)) return false;
  }
  return true;
}

/** The file line `i`, trimmed (an accessor for windowEquals). */
export const trimmedAt =
  (ctx: SearchContext) =>
  (i: number): string =>
    ctx.text.trimmedLine(i);

/** Exact occurrences of `needle` as candidates (overlapping ones included, so 'aa' in 'aaa' is two places). */
export function exactCandidates(
  ctx: SearchContext,
  needle: string,
  rung: RungName,
  distortions: Distortion[] = [],
): Candidate[] {
  const out: Candidate[] = [];
  if (needle.length === 0) return out;
  for (let at = ctx.content.indexOf(needle); at !== -1; at = ctx.content.indexOf(needle, at + 1)) {
    out.push({ start: at, end: at + needle.length, rung, matched: needle, lineAligned: false, distortions });
  }
  return out;
}
