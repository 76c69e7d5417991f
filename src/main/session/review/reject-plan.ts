/**
 * Plan the rejection of hunks of one file against the file as it is now (fixtures/bugs/README.md B39: a rejection of all
 * hunks leaves none behind). Pure: bytes in, planned writes or conflicts out; nothing touches the disk here.
 *
 * Line hunks are reverse-applied by rebase.ts (exact lines or conflict). A whole-file hunk is rejected only when
 * the file is still exactly what the step left (same bytes; for a delete, still absent); then the step's before
 * state comes back byte for byte: an added file is deleted, a deleted one recreated, a renamed one moved back.
 */
import type { HunkConflict } from '../../../shared/review-schemas';
import type { FileAnalysis } from './file-analysis';
import type { LineHunk } from './hunks';
import { bytesToLatin1, displayLine, latin1ToBytes, splitLines } from './lines';
import { rebaseOnto } from './rebase';

/** One planned disk change: write `bytes`, or delete the file when `bytes` is null. */
export interface PlannedWrite {
  path: string;
  bytes: Buffer | null;
}

export type FilePlan =
  { ok: true; writes: PlannedWrite[]; hunkIds: string[] } | { ok: false; conflicts: HunkConflict[] };

/** Current bytes of the paths a plan reads (null when absent). */
export type CurrentBytes = (path: string) => Buffer | null;

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

function wholeConflict(a: FileAnalysis, reason: HunkConflict['reason']): FileFail {
  return {
    ok: false,
    conflicts: [{ hunkId: a.fileHunkId as string, path: a.path, fromLine: 1, toLine: 0, expected: [], reason }],
  };
}
type FileFail = Extract<FilePlan, { ok: false }>;

function planWhole(a: FileAnalysis, current: CurrentBytes): FilePlan {
  const now = current(a.path);
  const id = a.fileHunkId as string;
  if (a.status === 'deleted') {
    if (now !== null) return wholeConflict(a, 'file_exists');
    return { ok: true, writes: [{ path: a.path, bytes: a.before }], hunkIds: [id] };
  }
  if (now === null) return wholeConflict(a, 'file_missing');
  if (!same(now, a.after)) return wholeConflict(a, 'file_changed');
  if (a.status === 'added') return { ok: true, writes: [{ path: a.path, bytes: null }], hunkIds: [id] };
  if (a.status === 'renamed' && a.oldPath) {
    if (current(a.oldPath) !== null) return wholeConflict(a, 'file_exists');
    return {
      ok: true,
      writes: [
        { path: a.oldPath, bytes: a.before },
        { path: a.path, bytes: null },
      ],
      hunkIds: [id],
    };
  }
  return { ok: true, writes: [{ path: a.path, bytes: a.before }], hunkIds: [id] };
}

/**
 * The step's after text with the `rejected` hunks already reverted (B), and where each other hunk starts in B.
 * Exact: the hunks are disjoint ranges of one diff, so their positions shift by the sizes of those above them.
 */
function withRejected(
  after: readonly string[],
  hunks: readonly LineHunk[],
  rejected: ReadonlySet<string>,
): { base: string[]; startIn: (h: LineHunk) => number } {
  const gone = hunks.filter((h) => rejected.has(h.id));
  const base = after.slice();
  for (const h of [...gone].reverse()) base.splice(h.bStart, h.bEnd - h.bStart, ...h.oldLines);
  const startIn = (h: LineHunk): number =>
    gone.reduce((n, g) => (g.bStart < h.bStart ? n + g.oldLines.length - g.newLines.length : n), h.bStart);
  return { base, startIn };
}

function planLines(
  a: FileAnalysis,
  ids: ReadonlySet<string>,
  current: CurrentBytes,
  rejected: ReadonlySet<string>,
): FilePlan {
  const chosen = a.hunks.filter((h) => ids.has(h.id));
  if (chosen.length === 0) return { ok: true, writes: [], hunkIds: [] };
  const now = current(a.path);
  if (now === null) {
    return {
      ok: false,
      conflicts: chosen.map((h) => ({
        hunkId: h.id,
        path: a.path,
        fromLine: 1,
        toLine: 0,
        expected: h.newLines.map(displayLine),
        reason: 'file_missing' as const,
      })),
    };
  }
  const { base, startIn } = withRejected(splitLines(bytesToLatin1(a.after as Buffer)), a.hunks, rejected);
  const edits = chosen.map((h) => ({
    hunkId: h.id,
    start: startIn(h),
    end: startIn(h) + h.bEnd - h.bStart,
    replacement: h.oldLines,
  }));
  const r = rebaseOnto(base, splitLines(bytesToLatin1(now)), edits);
  if (!r.ok) {
    const byId = new Map(chosen.map((h) => [h.id, h]));
    return {
      ok: false,
      conflicts: r.conflicts.map((c) => ({
        hunkId: c.hunkId,
        path: a.path,
        fromLine: c.fromLine,
        toLine: c.toLine,
        expected: (byId.get(c.hunkId)?.newLines ?? []).map(displayLine),
        reason: 'lines_changed' as const,
      })),
    };
  }
  return {
    ok: true,
    writes: [{ path: a.path, bytes: latin1ToBytes(r.lines.join('')) }],
    hunkIds: chosen.map((h) => h.id),
  };
}

/**
 * Plan rejecting the hunks of `a` whose ids are in `ids` (a whole-file hunk: its id). `rejected` holds the ids of
 * this file's hunks already rejected (still in force): the file is expected to have them reverted.
 */
export function planReject(
  a: FileAnalysis,
  ids: ReadonlySet<string>,
  current: CurrentBytes,
  rejected: ReadonlySet<string> = new Set(),
): FilePlan {
  if (a.kind === 'file')
    return ids.has(a.fileHunkId as string) ? planWhole(a, current) : { ok: true, writes: [], hunkIds: [] };
  return planLines(a, ids, current, rejected);
}
