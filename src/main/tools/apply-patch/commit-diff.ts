/**
 * The commit diff of a planned file, from the plan's own edit script instead of a fresh diff search
 * (DESIGN §3: the commit diff is the real before → after; both texts here are exactly what was read and what is
 * written). The planner knows which old lines each edit replaces by which new lines (edits.ts), so the unified
 * diff costs O(changed lines + context) — a 200-hunk patch over 50,000 lines needs no O(N·D) search.
 *
 * Algorithm: each edit first gives back as context the lines its removed and added ends have in common (text
 * and terminator equal: a "-x / +x" pair a model wrote is no change); then hunks take 3 lines of context, edits
 * at most 6 lines apart share a hunk, and "\ No newline at end of file" follows an unterminated line. Lines of
 * a CRLF file keep their "\r" — the shape of jsdiff's structuredPatch, and the text goes through jsdiff's
 * formatPatch, so every commit diff in Landfall reads the same.
 */
import { formatPatch } from 'diff';
import type { FileChange } from '../../../shared/model';
import { MAX_PATCH_CHARS } from '../../fs/file-diff';
import type { AddedLine, LineEdit } from '../../engine/patch/types';
import { splitLines, type FileLines } from '../../engine/text/lines';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** An edit without the lines its two sides share at either end (undefined when nothing is left). */
function trimEdit(old: FileLines, e: LineEdit): LineEdit | undefined {
  const same = (i: number, a: AddedLine | undefined): boolean =>
    a !== undefined && old.texts[i] === a.text && old.eols[i] === a.eol;
  let head = 0;
  while (head < e.oldCount && same(e.oldStart + head, e.added[head])) head++;
  let tail = 0;
  while (
    tail < e.oldCount - head &&
    tail < e.added.length - head &&
    same(e.oldStart + e.oldCount - 1 - tail, e.added[e.added.length - 1 - tail])
  )
    tail++;
  const trimmed = {
    oldStart: e.oldStart + head,
    oldCount: e.oldCount - head - tail,
    added: e.added.slice(head, e.added.length - tail),
  };
  return trimmed.oldCount === 0 && trimmed.added.length === 0 ? undefined : trimmed;
}

function render(prefix: string, text: string, eol: string, out: string[]): void {
  out.push(prefix + text + (eol === '\r\n' ? '\r' : ''));
  if (eol === '') out.push(NO_NEWLINE);
}

/** One hunk over edits[a..b] (inclusive); `shift` is newLine − oldLine before edits[a]. */
function hunkOf(old: FileLines, edits: readonly LineEdit[], a: number, b: number, shift: number): Hunk {
  const first = edits[a] as LineEdit;
  const lastEdit = edits[b] as LineEdit;
  const start = Math.max(0, first.oldStart - CONTEXT);
  const end = Math.min(old.texts.length, lastEdit.oldStart + lastEdit.oldCount + CONTEXT);
  const lines: string[] = [];
  let pos = start;
  let added = 0;
  for (let k = a; k <= b; k++) {
    const e = edits[k] as LineEdit;
    for (; pos < e.oldStart; pos++) render(' ', old.texts[pos] as string, old.eols[pos] as string, lines);
    for (; pos < e.oldStart + e.oldCount; pos++) render('-', old.texts[pos] as string, old.eols[pos] as string, lines);
    for (const line of e.added) render('+', line.text, line.eol, lines);
    added += e.added.length - e.oldCount;
  }
  for (; pos < end; pos++) render(' ', old.texts[pos] as string, old.eols[pos] as string, lines);
  return {
    oldStart: start + 1,
    oldLines: end - start,
    newStart: start + shift + 1,
    newLines: end - start + added,
    lines,
  };
}

function hunksOf(old: FileLines, edits: readonly LineEdit[]): Hunk[] {
  const hunks: Hunk[] = [];
  let shift = 0;
  let a = 0;
  while (a < edits.length) {
    let b = a;
    while (b + 1 < edits.length) {
      const cur = edits[b] as LineEdit;
      if ((edits[b + 1] as LineEdit).oldStart - (cur.oldStart + cur.oldCount) > 2 * CONTEXT) break;
      b++;
    }
    hunks.push(hunkOf(old, edits, a, b, shift));
    for (let k = a; k <= b; k++) shift += (edits[k] as LineEdit).added.length - (edits[k] as LineEdit).oldCount;
    a = b + 1;
  }
  return hunks;
}

/**
 * Commit diff of `rel` from `before` to `after` ('' for a new or removed file), given the edit script over the
 * lines of `before` that produces `after` (absent: every old line replaced by every new line). Returns
 * `{ file, patch?, additions, deletions }` (line counts); the patch text is dropped over MAX_PATCH_CHARS.
 */
export function planDiff(rel: string, before: string, after: string, edits?: readonly LineEdit[]): FileChange {
  if (before === after) return { file: rel, patch: '', additions: 0, deletions: 0 };
  const old = splitLines(before);
  let script = edits;
  if (!script) {
    const next = splitLines(after);
    script = [
      {
        oldStart: 0,
        oldCount: old.texts.length,
        added: next.texts.map((text, i) => ({ text, eol: next.eols[i] as string })),
      },
    ];
  }
  const trimmed = script.map((e) => trimEdit(old, e)).filter((e): e is LineEdit => e !== undefined);
  let additions = 0;
  let deletions = 0;
  for (const e of trimmed) {
    additions += e.added.length;
    deletions += e.oldCount;
  }
  const patch = formatPatch({
    oldFileName: `a/${rel}`,
    newFileName: `b/${rel}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: hunksOf(old, trimmed),
  });
  return patch.length > MAX_PATCH_CHARS
    ? { file: rel, additions, deletions }
    : { file: rel, patch, additions, deletions };
}
