/**
 * Reverse-apply hunks to the file as it is NOW (issue 8, DESIGN §5).
 *
 * A hunk of a step lives in the step's after text A: it produced A[start, end). The file now is C, which later
 * steps or the user may have changed. We diff A → C (line regions) and, for each hunk:
 *   - if a region of A → C touches the hunk's lines or the one line of context on each side (overlaps them, or an
 *     insertion inside them), the lines the hunk produced are no longer there unchanged — or a change sits so
 *     close that its side of the hunk is ambiguous: a conflict, reported with the lines of C where they were;
 *   - otherwise its position in C is its position in A shifted by the regions before it, and C's lines there are
 *     exactly the hunk's lines, so replacing them by the hunk's old lines undoes that hunk and nothing else.
 * All hunks are checked before any is applied (all or nothing); they are applied bottom-up so indexes stay valid.
 * No fuzz, no searching: a hunk lands on the exact lines it produced, or not at all.
 *
 * A line diff's alignment is ambiguous when lines repeat (blank lines, `}`): Myers may pair a hunk's line with a
 * twin and call the hunk touched although its lines are intact. That errs on the safe side (a conflict, nothing
 * written), never on a wrong place. The caller removes the commonest source — the step's own hunks rejected
 * earlier — by diffing from A with those hunks already reverted (reject-plan.ts), which C then equals exactly.
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
function locate(regions: readonly Region[], edit: PlannedEdit): { at: number } | { conflict: RebaseConflict } {
  let shift = 0;
  const hit: Region[] = [];
  const s = edit.start - CONTEXT_LINES;
  const e = edit.end + CONTEXT_LINES;
  for (const r of regions) {
    if (touches(r, s, e)) hit.push(r);
    else if (r.aEnd <= edit.start) shift += r.bEnd - r.bStart - (r.aEnd - r.aStart);
  }
  if (hit.length === 0) return { at: edit.start + shift };
  const first = hit[0] as Region;
  const last = hit[hit.length - 1] as Region;
  return {
    conflict: { hunkId: edit.hunkId, fromLine: first.bStart + 1, toLine: Math.max(last.bEnd, first.bStart + 1) },
  };
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
    const where = locate(regions, edit);
    if ('conflict' in where) conflicts.push(where.conflict);
    else placed.push({ at: where.at, edit });
  }
  if (conflicts.length > 0) return { ok: false, conflicts };
  const out = c.slice();
  placed.sort((x, y) => y.at - x.at);
  for (const { at, edit } of placed) out.splice(at, edit.end - edit.start, ...edit.replacement);
  return { ok: true, lines: out };
}
