/**
 * The commit diff of a planned file, from the plan's own line alignment instead of a fresh diff search
 * (DESIGN §3: the commit diff is the real before → after; here both texts are exactly what was read and what is
 * written). The planner knows for every new line which old line it was copied from (`origin`, -1 = inserted),
 * so the unified diff costs O(lines) — a 200-hunk patch over 50,000 lines needs no O(N·D) search.
 *
 * Algorithm: walk the new lines; a copied line whose terminator is unchanged is context, and old lines skipped
 * on the way are removals; everything else is an addition (a copied line whose terminator changed — the old
 * unterminated last line — counts as removed and added, as in any line diff). Within each change block the
 * common leading and trailing lines are turned back into context (a "-x / +x" pair a model wrote is no change).
 * Hunks: 3 lines of context, blocks closer than 6 lines merged, "\ No newline at end of file" after an
 * unterminated line — the same shape jsdiff's structuredPatch/formatPatch produce (it formats through jsdiff).
 */
import { formatPatch } from 'diff';
import type { FileChange } from '../../shared/model';
import { MAX_PATCH_CHARS } from '../fs';
import { splitLines, type FileLines } from './lines';

const CONTEXT = 3;
const EQUAL = 0;
const REMOVED = 1;
const ADDED = 2;

/** An op list: kind per op, and the old (EQUAL/REMOVED) or new (ADDED) line index it shows. */
interface Ops {
  kind: number[];
  line: number[];
}

function sameLine(a: FileLines, i: number, b: FileLines, j: number): boolean {
  return a.texts[i] === b.texts[j] && a.eols[i] === b.eols[j];
}

/** Append one change block (old lines [o0, o1), new lines in `added`), trimming common ends back to context. */
function pushBlock(ops: Ops, before: FileLines, after: FileLines, o0: number, o1: number, added: number[]): void {
  let head = 0;
  while (o0 + head < o1 && head < added.length && sameLine(before, o0 + head, after, added[head] as number)) head++;
  let tail = 0;
  while (o1 - tail - 1 >= o0 + head && added.length - tail - 1 >= head && sameLine(before, o1 - tail - 1, after, added[added.length - tail - 1] as number)) tail++;
  for (let i = 0; i < head; i++) ops.kind.push(EQUAL), ops.line.push(o0 + i);
  for (let i = o0 + head; i < o1 - tail; i++) ops.kind.push(REMOVED), ops.line.push(i);
  for (let k = head; k < added.length - tail; k++) ops.kind.push(ADDED), ops.line.push(added[k] as number);
  for (let i = o1 - tail; i < o1; i++) ops.kind.push(EQUAL), ops.line.push(i);
}

function alignmentOps(before: FileLines, after: FileLines, origin: ArrayLike<number>): Ops {
  const ops: Ops = { kind: [], line: [] };
  let old = 0;
  let added: number[] = [];
  for (let j = 0; j < after.texts.length; j++) {
    const o = origin[j] ?? -1;
    if (o >= old && sameLine(before, o, after, j)) {
      if (o > old || added.length > 0) pushBlock(ops, before, after, old, o, added);
      added = [];
      ops.kind.push(EQUAL);
      ops.line.push(o);
      old = o + 1;
    } else added.push(j);
  }
  if (old < before.texts.length || added.length > 0) pushBlock(ops, before, after, old, before.texts.length, added);
  return ops;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Unified hunks over `ops` (see the module docstring). */
function hunksOf(ops: Ops, before: FileLines, after: FileLines): Hunk[] {
  const n = ops.kind.length;
  const oldAt = new Int32Array(n + 1);
  const newAt = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    oldAt[i + 1] = (oldAt[i] as number) + (ops.kind[i] === ADDED ? 0 : 1);
    newAt[i + 1] = (newAt[i] as number) + (ops.kind[i] === REMOVED ? 0 : 1);
  }
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < n) {
    if (ops.kind[i] === EQUAL) {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let j = i;
    let end: number;
    for (;;) {
      while (j < n && ops.kind[j] !== EQUAL) j++;
      let r = j;
      while (r < n && ops.kind[r] === EQUAL) r++;
      if (r < n && r - j <= 2 * CONTEXT) {
        j = r;
        continue;
      }
      end = j + Math.min(r - j, CONTEXT);
      break;
    }
    const lines: string[] = [];
    for (let k = start; k < end; k++) {
      const kind = ops.kind[k];
      const file = kind === ADDED ? after : before;
      const at = ops.line[k] as number;
      const eol = file.eols[at] as string;
      lines.push((kind === EQUAL ? ' ' : kind === REMOVED ? '-' : '+') + file.texts[at] + (eol === '\r\n' ? '\r' : ''));
      if (eol === '') lines.push('\\ No newline at end of file');
    }
    hunks.push({
      oldStart: (oldAt[start] as number) + 1,
      oldLines: (oldAt[end] as number) - (oldAt[start] as number),
      newStart: (newAt[start] as number) + 1,
      newLines: (newAt[end] as number) - (newAt[start] as number),
      lines,
    });
    i = end;
  }
  return hunks;
}

/**
 * Commit diff of `rel` from `before` to `after` ('' for a new or removed file). `origin[j]` is the index of the
 * line of `before` that line j of `after` was copied from, or -1 when inserted (absent: every line inserted).
 * Returns `{ file, patch?, additions, deletions }`; the patch text is dropped over MAX_PATCH_CHARS.
 */
export function planDiff(rel: string, before: string, after: string, origin?: ArrayLike<number>): FileChange {
  if (before === after) return { file: rel, patch: '', additions: 0, deletions: 0 };
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = alignmentOps(a, b, origin ?? new Int32Array(b.texts.length).fill(-1));
  let additions = 0;
  let deletions = 0;
  for (const k of ops.kind) {
    if (k === ADDED) additions++;
    else if (k === REMOVED) deletions++;
  }
  const patch = formatPatch({ oldFileName: `a/${rel}`, newFileName: `b/${rel}`, oldHeader: undefined, newHeader: undefined, hunks: hunksOf(ops, a, b) });
  return patch.length > MAX_PATCH_CHARS ? { file: rel, additions, deletions } : { file: rel, patch, additions, deletions };
}
