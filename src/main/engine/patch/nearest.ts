/**
 * What to tell the model when a hunk's old lines are not found (the rule: "the nearest region of the file with
 * line numbers"). Only computed on failure. Algorithm: under the loosest pass, every occurrence of every old line
 * votes for the window start it implies (occurrence line − the line's offset in the hunk); the window with most
 * votes at or after the cursor is the nearest region (earliest wins a tie). Old lines that occur nowhere after
 * the cursor are listed by name, which is usually the whole story ("the line '  c()' is not in the file").
 */
import { LOOSEST } from './passes';
import { lowerBound } from '../text/binary-search';
import type { LineIndex } from './seek';

/** The region of the file most like the hunk, with 1-based line numbers, and the old lines found nowhere. */
export interface NearestRegion {
  /** 1-based first and last line of the region (0 and 0 when the file has no lines after the cursor). */
  startLine: number;
  endLine: number;
  /** How many of the hunk's old lines match the region line for line (loosest pass). */
  matchingLines: number;
  /** The region's lines as the file has them. */
  lines: string[];
  /** Old lines of the hunk that occur nowhere at or after the cursor (loosest pass). */
  missing: string[];
}

/** Find the region of `file` at or after `from` most like `block` (non-empty old lines). */
export function nearestRegion(file: LineIndex, block: readonly string[], from: number): NearestRegion {
  const idx = file.index(LOOSEST);
  const n = file.lines.length;
  const lastStart = Math.max(from, n - block.length);
  const votes = new Map<number, number>();
  const missing: string[] = [];
  block.forEach((line, j) => {
    const list = idx.where.get(LOOSEST.key(line)) ?? [];
    let any = false;
    for (let at = lowerBound(list, from); at < list.length; at++) {
      any = true;
      const start = (list[at] as number) - j;
      if (start < from || start > lastStart) continue;
      votes.set(start, (votes.get(start) ?? 0) + 1);
    }
    if (!any && !missing.includes(line)) missing.push(line);
  });
  let best = from;
  let bestVotes = 0;
  for (const [start, count] of votes) {
    if (count > bestVotes || (count === bestVotes && start < best)) {
      best = start;
      bestVotes = count;
    }
  }
  if (from >= n) return { startLine: 0, endLine: 0, matchingLines: 0, lines: [], missing };
  const end = Math.min(n, best + Math.max(block.length, 1));
  return {
    startLine: best + 1,
    endLine: end,
    matchingLines: bestVotes,
    lines: file.lines.slice(best, end) as string[],
    missing,
  };
}

/** The region as numbered lines for an error message (`  12 | text`). */
export function formatRegion(region: NearestRegion): string {
  const width = String(region.endLine).length;
  return region.lines.map((line, i) => `${String(region.startLine + i).padStart(width)} | ${line}`).join('\n');
}
