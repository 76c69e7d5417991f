/**
 * One changed file between two trees, analysed for review: how it is reviewed (line hunks, or one whole-file hunk)
 * and what the renderer may be sent (fixtures/bugs/README.md B40: binary, huge, and very-long-line files are guarded, never sent whole).
 *
 * Line hunks are used for a modified text file under MAX_HUNK_BYTES. Added, deleted and renamed files, binary files
 * and files over the limit get one whole-file hunk: rejecting it brings back the file (or its absence) exactly.
 */
import { createHash } from 'node:crypto';
import type { FileDiff } from '../../../shared/model';
import type { HunkState, ReviewFile, ReviewHunk } from '../../../shared/review-schemas';
import { decodeBytes } from '../../fs/text-file';
import { displayLines, hunkId, lineHunks, type LineHunk } from './hunks';
import { bytesToLatin1, looksBinary, splitLines } from './lines';

/** Files larger than this (bytes, either side) are reviewed as whole files: no line diff is computed. */
export const MAX_HUNK_BYTES = 8 * 1024 * 1024;
/** Text over this size (bytes, either side) is not sent to the renderer (guard `too_large`). */
export const MAX_VIEW_BYTES = 1024 * 1024;
/** A line longer than this (bytes) guards the file (`long_lines`): minified bundles freeze editors (fixtures/bugs/README.md B40). */
export const MAX_VIEW_LINE = 10_000;

export interface FileAnalysis {
  path: string;
  status: FileDiff['status'];
  oldPath?: string;
  before: Buffer | null;
  after: Buffer | null;
  kind: 'lines' | 'file';
  /** Line hunks (kind 'lines'), or the single whole-file hunk's id (kind 'file'). */
  hunks: LineHunk[];
  fileHunkId?: string;
  binary: boolean;
}

/** sha1 hex of bytes (null for an absent side). */
export function sha1(bytes: Uint8Array | null): string | null {
  return bytes ? createHash('sha1').update(bytes).digest('hex') : null;
}

/** Analyse one changed file. `scope` is the `from..to` key hunk ids derive from. */
export function analyseFile(
  scope: string,
  d: Pick<FileDiff, 'path' | 'status' | 'oldPath'>,
  before: Buffer | null,
  after: Buffer | null,
): FileAnalysis {
  const binary = (before !== null && looksBinary(before)) || (after !== null && looksBinary(after));
  const big = (before?.length ?? 0) > MAX_HUNK_BYTES || (after?.length ?? 0) > MAX_HUNK_BYTES;
  const base = { path: d.path, status: d.status, before, after, binary, ...(d.oldPath ? { oldPath: d.oldPath } : {}) };
  if (d.status === 'modified' && before && after && !binary && !big) {
    const hunks = lineHunks(scope, d.path, splitLines(bytesToLatin1(before)), splitLines(bytesToLatin1(after)));
    return { ...base, kind: 'lines', hunks };
  }
  const id = hunkId(
    scope,
    d.path,
    [`file:${d.oldPath ?? ''}:${sha1(before) ?? '-'}`],
    [`file:${sha1(after) ?? '-'}`],
    0,
  );
  return { ...base, kind: 'file', hunks: [], fileHunkId: id };
}

function longestByteLine(bytes: Buffer): number {
  let max = 0;
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    if (end - start > max) max = end - start;
    if (nl === -1) return max;
    start = nl + 1;
  }
}

function viewText(bytes: Buffer | null): { text?: string; guard?: ReviewFile['guard'] } {
  if (!bytes) return {};
  if (looksBinary(bytes)) return { guard: 'binary' };
  // Long lines first: a 5 MB one-line bundle is a long-line file before it is a large one (fixtures/bugs/README.md B40).
  if (longestByteLine(bytes) > MAX_VIEW_LINE) return { guard: 'long_lines' };
  if (bytes.length > MAX_VIEW_BYTES) return { guard: 'too_large' };
  const decoded = decodeBytes(bytes);
  if (!decoded.ok) return { guard: 'binary' };
  return { text: decoded.value.text };
}

function countLines(bytes: Buffer | null): number {
  if (!bytes || bytes.length === 0) return 0;
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return bytes[bytes.length - 1] === 10 ? n : n + 1;
}

type StateOf = (id: string) => { state: HunkState; decisionId?: string };

function fileHunk(a: FileAnalysis, stateOf: StateOf): ReviewHunk {
  const text = (b: Buffer | null): string[] => (a.binary || !b ? [] : splitLines(bytesToLatin1(b)));
  const oldSide = a.status === 'added' ? [] : text(a.before);
  const newSide = a.status === 'deleted' ? [] : text(a.after);
  // Renamed / binary / huge modified files show no lines in the hunk: the view says what changed instead.
  const shown =
    a.status === 'added' || a.status === 'deleted' ? displayLines(oldSide, newSide) : { lines: [], truncated: false };
  const oldLines = a.binary ? 0 : oldSide.length;
  const newLines = a.binary ? 0 : newSide.length;
  return {
    id: a.fileHunkId as string,
    kind: 'file',
    oldStart: oldLines === 0 ? 0 : 1,
    oldLines,
    newStart: newLines === 0 ? 0 : 1,
    newLines,
    lines: shown.lines,
    ...(shown.truncated ? { linesTruncated: true } : {}),
    ...stateOf(a.fileHunkId as string),
  };
}

/** The renderer's view of an analysed file, with each hunk's decision state. */
export function toReviewFile(a: FileAnalysis, stateOf: StateOf): ReviewFile {
  const b = viewText(a.before);
  const f = viewText(a.after);
  const guard = a.binary ? 'binary' : (b.guard ?? f.guard);
  const hunks: ReviewHunk[] =
    a.kind === 'file'
      ? [fileHunk(a, stateOf)]
      : a.hunks.map((h) => {
          const shown = displayLines(h.oldLines, h.newLines);
          return {
            id: h.id,
            kind: 'lines' as const,
            oldStart: h.aStart + 1,
            oldLines: h.aEnd - h.aStart,
            newStart: h.bStart + 1,
            newLines: h.bEnd - h.bStart,
            lines: shown.lines,
            ...(shown.truncated ? { linesTruncated: true } : {}),
            ...stateOf(h.id),
          };
        });
  const fileCount = (side: Buffer | null, skip: FileDiff['status']): number =>
    a.status === skip || a.binary ? 0 : countLines(side);
  const additions =
    a.kind === 'lines' ? a.hunks.reduce((n, h) => n + h.bEnd - h.bStart, 0) : fileCount(a.after, 'deleted');
  const deletions =
    a.kind === 'lines' ? a.hunks.reduce((n, h) => n + h.aEnd - h.aStart, 0) : fileCount(a.before, 'added');
  return {
    path: a.path,
    status: a.status,
    ...(a.oldPath ? { oldPath: a.oldPath } : {}),
    ...(guard
      ? { guard }
      : { ...(b.text !== undefined ? { before: b.text } : {}), ...(f.text !== undefined ? { after: f.text } : {}) }),
    beforeSize: a.before?.length ?? 0,
    afterSize: a.after?.length ?? 0,
    ...(a.before ? { beforeHash: (sha1(a.before) as string).slice(0, 12) } : {}),
    ...(a.after ? { afterHash: (sha1(a.after) as string).slice(0, 12) } : {}),
    additions,
    deletions,
    hunks,
  };
}
