/**
 * Reverse-apply hunks to the file as it is NOW (DESIGN §5).
 *
 * A hunk of a step lives in the step's after text A: it produced A[start, end). The file now is C, which later
 * steps or the user may have changed. We diff A → C (line regions) and, for each hunk:
 *   - if a region of A → C touches the hunk's lines or the one line of context on each side (overlaps them, or an
 *     insertion inside them), the lines the hunk produced are no longer there unchanged — or a change sits so
 *     close that its side of the hunk is ambiguous: a conflict, reported with the lines of C where they were;
 *   - otherwise its position in C is its position in A shifted by the regions before it, and C's lines there are
 *     exactly the hunk's lines — but when C differs from A at all, that position is only one reading of the
 *     change: with repeated lines, another alignment of the same two texts puts the hunk's lines elsewhere (a
 *     later change that inserted `b, a` above `a, a` may as well have inserted `b` above and `a` below). So the
 *     hunk's lines with their context must occur in C exactly once; a second copy makes its place ambiguous, and
 *     an ambiguous place is a conflict, never a guess (property-tested: some hunks already reverted in C, the
 *     rest give the before text or a conflict). Replacing the lines at that one place by the hunk's old lines
 *     undoes that hunk and nothing else.
 * All hunks are checked before any is applied (all or nothing); they are applied bottom-up so indexes stay valid.
 * No fuzz, no searching for a better place: a hunk lands on the exact lines it produced, or not at all.
 *
 * Ambiguity errs on the safe side (a conflict, nothing written), never on a wrong place. The caller removes the
 * commonest source — the step's own hunks rejected earlier — by diffing from A with those hunks already reverted
 * (reject-plan.ts), which C then equals exactly: with no region at all, every hunk is where it was.
 */
import type { Region } from './line-diff';
import { lineRegions } from './line-diff';

/** Replace A[start, end) (0-based, half-open, in the hunk's after text) by `replacement`. */
export interface PlannedEdit {
  hunkId: string;
  start: number;
  end: number;
  replacement: string[];
}

/** A hunk whose lines changed since: `fromLine..toLine` are the 1-based lines of C covering where they were. */
export interface RebaseConflict {
  hunkId: string;
  fromLine: number;
  toLine: number;
}

export type RebaseResult = { ok: true; lines: string[] } | { ok: false; conflicts: RebaseConflict[] };

function touches(r: Region, s: number, e: number): boolean {
  const rEmpty = r.aStart === r.aEnd;
  if (s === e) return rEmpty ? r.aStart === s : r.aStart < s && s < r.aEnd;
  if (rEmpty) return s < r.aStart && r.aStart < e;
  return r.aStart < e && s < r.aEnd;
}

/**
 * Lines around a hunk that must also be unchanged (a zero-fuzz patch's context). One line is what makes placement
 * safe when lines repeat: a change right next to a hunk could belong before or after it (property-tested).
 */
export const CONTEXT_LINES = 1;

/** Where edit `e` sits in C, or the conflict. `regions` are A → C. */
function locate(
  regions: readonly Region[],
  edit: PlannedEdit,
  a: readonly string[],
  c: readonly string[],
): { at: number } | { conflict: RebaseConflict } {
  let shift = 0;
  const hit: Region[] = [];
  const s = edit.start - CONTEXT_LINES;
  const e = edit.end + CONTEXT_LINES;
  for (const r of regions) {
    if (touches(r, s, e)) hit.push(r);
    else if (r.aEnd <= edit.start) shift += r.bEnd - r.bStart - (r.aEnd - r.aStart);
  }
  if (hit.length === 0) {
    const at = edit.start + shift;
    if (regions.length === 0 || onlyPlace(a, c, edit, at)) return { at };
    const toLine = Math.max(at + edit.end - edit.start, at + 1);
    return { conflict: { hunkId: edit.hunkId, fromLine: at + 1, toLine } };
  }
  const first = hit[0] as Region;
  const last = hit[hit.length - 1] as Region;
  return {
    conflict: { hunkId: edit.hunkId, fromLine: first.bStart + 1, toLine: Math.max(last.bEnd, first.bStart + 1) },
  };
}

/**
 * True when the hunk's lines with their context (A[start - 1, end + 1), the file's start or end standing in for a
 * missing context line) occur in C exactly once, at `at`. Elsewhere too, and the later change could have moved
 * them there: which copy is the hunk's cannot be told from the two texts, so the caller answers a conflict.
 */
function onlyPlace(a: readonly string[], c: readonly string[], edit: PlannedEdit, at: number): boolean {
  const from = Math.max(0, edit.start - CONTEXT_LINES);
  const to = Math.min(a.length, edit.end + CONTEXT_LINES);
  const block = a.slice(from, to);
  const atStart = edit.start - CONTEXT_LINES < 0;
  const atEnd = edit.end + CONTEXT_LINES > a.length;
  const lead = edit.start - from;
  const matchesAt = (i: number): boolean => {
    if (i < 0 || i + block.length > c.length) return false;
    if (atStart && i !== 0) return false;
    if (atEnd && i + block.length !== c.length) return false;
    for (let k = 0; k < block.length; k++) if (c[i + k] !== block[k]) return false;
    return true;
  };
  if (!matchesAt(at - lead)) return false;
  for (let i = 0; i + block.length <= c.length; i++) if (i !== at - lead && matchesAt(i)) return false;
  return true;
}

/**
 * Apply `edits` (disjoint ranges of `a`) to `c`, the file now. Returns C's new lines, or every conflict (nothing
 * applied). `a` and `c` are terminator-inclusive lines (lines.ts).
 */
export function rebaseOnto(a: readonly string[], c: readonly string[], edits: readonly PlannedEdit[]): RebaseResult {
  const regions = lineRegions(a, c);
  const placed: { at: number; edit: PlannedEdit }[] = [];
  const conflicts: RebaseConflict[] = [];
  for (const edit of edits) {
    const where = locate(regions, edit, a, c);
    if ('conflict' in where) conflicts.push(where.conflict);
    else placed.push({ at: where.at, edit });
  }
  if (conflicts.length > 0) return { ok: false, conflicts };
  const out = c.slice();
  placed.sort((x, y) => y.at - x.at);
  for (const { at, edit } of placed) out.splice(at, edit.end - edit.start, ...edit.replacement);
  return { ok: true, lines: out };
}
