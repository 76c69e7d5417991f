/**
 * Building the new text from placed hunks, as an edit script over the old lines (pure). An edit replaces old
 * lines [oldStart, oldStart + oldCount) by `added` lines; everything between edits is copied as one slice of the
 * original text, so untouched bytes are the file's own and a 50,000-line file costs a few slices, not 50,000
 * line copies. The same edit list is the line alignment the commit diff is built from (commit-diff.ts).
 *
 * Terminators (conformance policy 7–8): inserted lines take the file's first line ending; the file's
 * final-newline state is kept. When the file has no final newline, two edits follow from that, made explicit
 * here so the diff tells the truth: an old unterminated last line that is no longer last gains a terminator
 * (it is removed and re-added terminated), and whatever line ends the new text loses its terminator.
 */
import type { FileLines } from '../text/lines';
import type { HunkLine, LineEdit } from './types';

/** A hunk placed in the file: its old lines start at line index `start`. */
export interface Placement {
  start: number;
  lines: readonly HunkLine[];
}

/** The edits one placed hunk makes (context lines split it into several). */
function editsOf(p: Placement, eol: string, out: LineEdit[]): void {
  let pos = p.start;
  let open: LineEdit | undefined;
  for (const line of p.lines) {
    if (line.kind === 'context') {
      open = undefined;
      pos++;
      continue;
    }
    if (!open) {
      open = { oldStart: pos, oldCount: 0, added: [] };
      out.push(open);
    }
    if (line.kind === 'delete') {
      open.oldCount++;
      pos++;
    } else open.added.push({ text: line.text, eol });
  }
}

/** Merge edits that touch (one ends where the next starts). */
function mergeAdjacent(edits: LineEdit[]): LineEdit[] {
  const out: LineEdit[] = [];
  for (const e of edits) {
    const last = out[out.length - 1];
    if (last && last.oldStart + last.oldCount === e.oldStart) {
      last.oldCount += e.oldCount;
      last.added.push(...e.added);
    } else out.push({ oldStart: e.oldStart, oldCount: e.oldCount, added: [...e.added] });
  }
  return out;
}

/** Keep "no final newline" true (see the module docstring). */
function keepNoFinalNewline(file: FileLines, input: LineEdit[]): LineEdit[] {
  const n = file.texts.length;
  let edits = mergeAdjacent(input);
  const tail = edits[edits.length - 1];
  if (!tail || tail.oldStart + tail.oldCount < n) return edits; // the old last line stays last, unterminated
  if (tail.oldCount === 0) {
    // Lines appended after the old unterminated last line: it gains a terminator (removed, re-added).
    tail.oldStart = n - 1;
    tail.oldCount = 1;
    tail.added.unshift({ text: file.texts[n - 1] as string, eol: file.eol });
    edits = mergeAdjacent(edits);
  }
  const last = edits[edits.length - 1] as LineEdit;
  if (last.added.length === 0 && last.oldStart > 0) {
    // The tail was deleted: the copied line now ending the text loses its terminator.
    last.oldStart--;
    last.oldCount++;
    last.added.push({ text: file.texts[last.oldStart] as string, eol: '' });
    edits = mergeAdjacent(edits);
  }
  const end = edits[edits.length - 1] as LineEdit;
  const final = end.added[end.added.length - 1];
  if (final) final.eol = '';
  return edits;
}

/** The edit script of the placements (in file order). */
export function editScript(file: FileLines, placements: readonly Placement[]): LineEdit[] {
  const edits: LineEdit[] = [];
  for (const p of placements) editsOf(p, file.eol, edits);
  const nonEmpty = edits.filter((e) => e.oldCount > 0 || e.added.length > 0);
  return file.finalNewline || file.texts.length === 0 ? mergeAdjacent(nonEmpty) : keepNoFinalNewline(file, nonEmpty);
}

/** Apply `edits` to `text` (split as `file`): untouched regions are copied as slices. */
export function applyEdits(text: string, file: FileLines, edits: readonly LineEdit[]): string {
  const parts: string[] = [];
  let pos = 0;
  for (const e of edits) {
    parts.push(text.slice(file.offsets[pos], file.offsets[e.oldStart]));
    for (const a of e.added) parts.push(a.text, a.eol);
    pos = e.oldStart + e.oldCount;
  }
  parts.push(text.slice(file.offsets[pos], file.offsets[file.texts.length]));
  return parts.join('');
}
