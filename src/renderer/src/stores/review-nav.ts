/**
 * Pure helpers of review navigation: hunks of a diff in reading order (file by file, top to bottom), the next /
 * previous one from a position, and the next pending one after a decision (the view moves on by itself).
 */
import { decidable } from '../../../shared/review-change';
import type { ReviewDiff, ReviewHunk } from '../../../shared/review-schemas';

/** A hunk's place: file index and hunk index within the file. */
export interface HunkPos {
  file: number;
  hunk: number;
}

/** Every hunk position of the diff in reading order. */
export function allHunks(diff: ReviewDiff | null): HunkPos[] {
  if (!diff) return [];
  const out: HunkPos[] = [];
  diff.files.forEach((f, file) => f.hunks.forEach((_h, hunk) => out.push({ file, hunk })));
  return out;
}

/** The hunk at a position, if any. */
export function hunkAt(diff: ReviewDiff | null, pos: HunkPos | null): ReviewHunk | undefined {
  if (!diff || !pos) return undefined;
  return diff.files[pos.file]?.hunks[pos.hunk];
}

function order(a: HunkPos, b: HunkPos): number {
  return a.file - b.file || a.hunk - b.hunk;
}

/** The next (`dir` 1) or previous (-1) hunk from `pos`, wrapping around; null when the diff has none. */
export function stepHunk(diff: ReviewDiff | null, pos: HunkPos | null, dir: 1 | -1): HunkPos | null {
  const list = allHunks(diff);
  if (list.length === 0) return null;
  if (!pos) return dir === 1 ? (list[0] as HunkPos) : (list[list.length - 1] as HunkPos);
  if (dir === 1) return list.find((p) => order(p, pos) > 0) ?? (list[0] as HunkPos);
  const before = list.filter((p) => order(p, pos) < 0);
  return before[before.length - 1] ?? (list[list.length - 1] as HunkPos);
}

/** The first pending hunk at or after `pos` (wrapping), or null when none is pending (a reverted one is not). */
export function nextPending(diff: ReviewDiff | null, pos: HunkPos | null): HunkPos | null {
  const list = allHunks(diff);
  const pending = list.filter((p) => {
    const h = hunkAt(diff, p);
    return h !== undefined && decidable(h);
  });
  if (pending.length === 0) return null;
  if (!pos) return pending[0] as HunkPos;
  return pending.find((p) => order(p, pos) >= 0) ?? (pending[0] as HunkPos);
}

/** The position of a hunk id in the diff, or null. */
export function findHunk(diff: ReviewDiff | null, id: string): HunkPos | null {
  return allHunks(diff).find((p) => hunkAt(diff, p)?.id === id) ?? null;
}

/**
 * The hunk of `diff`'s file `file` that a line of the diff editor belongs to: `side` 'modified' reads the line in
 * the new text, 'original' in the old. A line inside a hunk's range is that hunk; a hunk with no lines on that side
 * (a pure insertion or deletion) owns the line just above and just below where it sits. Null for any other line —
 * clicking an unchanged line keeps the focused hunk.
 */
export function hunkAtLine(
  diff: ReviewDiff | null,
  file: number,
  line: number,
  side: 'modified' | 'original',
): HunkPos | null {
  const hunks = diff?.files[file]?.hunks ?? [];
  for (let hunk = 0; hunk < hunks.length; hunk++) {
    const h = hunks[hunk] as ReviewHunk;
    if (h.kind === 'file') return { file, hunk };
    const start = side === 'modified' ? h.newStart : h.oldStart;
    const count = side === 'modified' ? h.newLines : h.oldLines;
    const inside = count > 0 ? line >= start && line < start + count : line >= start - 1 && line <= start;
    if (inside) return { file, hunk };
  }
  return null;
}
