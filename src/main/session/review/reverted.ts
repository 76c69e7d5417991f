/**
 * What a revert took off disk, as review shows it (DESIGN §5 revert, §8 timeline). While a session is reverted
 * (`session.revert`, the soft boundary of session/revert.ts), the steps after the boundary stay on the timeline until
 * the next message, but their changes are not in the work tree: the revert put each file they wrote back to the
 * tree of the earliest such step (`earliestTree`). Review must not show those hunks as if they were on disk ("Kept",
 * with an Undo) nor offer a Keep / Reject that would write; it marks them instead, from here:
 *
 * - a **step** is reverted when its patch part (or, without one, its step-finish) lies at or after the boundary —
 *   the same parts the revert covered (`boundaryIndex`, `patchesAfter`);
 * - a **decision** is reverted when it was made before the revert wrote the work tree (its log sequence is below
 *   `ReviewLog.revertSeq`) and decided hunks of a reverted step (the tree it compared to is a reverted step's): the
 *   revert put its files back to before that step. So is the undo of such a decision. A decision made while
 *   reverted is never reverted: ReviewService refuses one on reverted hunks, so it decided hunks still on disk (say,
 *   the part before the boundary of a diff against the session start) and its writes are on disk;
 * - a **hunk** of a diff `from..to` is reverted when `to` is a reverted point's tree and its file is one the revert
 *   restored: every such hunk when `from` is a reverted point's tree too (the diff lies wholly after the boundary),
 *   else (a diff from before the boundary, e.g. against the session start) the hunks whose new lines meet a change
 *   between the restored tree and `to` — the part of the diff that came after the boundary. A diff against the work
 *   tree now is never marked: its "to" is the disk.
 * A reverted hunk that was rejected before the revert stays rejected after unrevert (the remembered tree holds the
 * rejection); any other comes back with unrevert. Nothing here writes.
 */
import type { MessageWithParts, RevertState } from '../../../shared/model';
import type { HunkReverted } from '../../../shared/review-schemas';
import { boundaryIndex, earliestTree, patchesAfter } from '../revert';
import type { ReviewSnapshots } from './context';
import type { FileAnalysis } from './file-analysis';
import { lineRegions } from './line-diff';
import { bytesToLatin1, splitLines } from './lines';
import type { ResolvedTarget } from './load';
import type { ReviewEvent } from './log';
import { stepEntries } from './timeline';

/** The revert in force, read for review (see the module docstring). */
export interface RevertMarks {
  /** Timeline entry ids (steps, decisions, undos) whose changes the revert took off disk. */
  entries: ReadonlySet<string>;
  /** The trees before / after each reverted point. */
  froms: ReadonlySet<string>;
  tos: ReadonlySet<string>;
  /** Each file the revert restored, with the tree it was restored from. */
  restoredFrom: ReadonlyMap<string, string>;
}

/** Ids of the step entries whose patch part (else step-finish) lies at or after flattened part index `boundary`. */
function revertedSteps(messages: readonly MessageWithParts[], boundary: number): Set<string> {
  const out = new Set<string>();
  let index = 0;
  let open: string | null = null;
  for (const m of messages) {
    const parts = m.parts;
    for (let i = 0; i < parts.length; i++, index++) {
      const p = parts[i] as MessageWithParts['parts'][number];
      if (p.type === 'step-start') open = p.id;
      else if (p.type === 'step-finish' && open) {
        const last = parts[i + 1]?.type === 'patch' ? index + 1 : index;
        if (last >= boundary) out.add(open);
        open = null;
      }
    }
  }
  return out;
}

/**
 * The marks of the session's revert, or null when it is not reverted (or its boundary names nothing here). `events`
 * are the session's review events (decisions and undos), in log order; `since` is the log sequence at which the
 * revert wrote the work tree (ReviewLog.revertSeq; undefined: every event predates it).
 */
export function revertMarks(
  messages: MessageWithParts[],
  events: readonly ReviewEvent[],
  revert: RevertState | undefined,
  since?: number,
): RevertMarks | null {
  if (!revert) return null;
  const boundary = boundaryIndex(messages, revert);
  const patches = patchesAfter(messages, revert);
  if (boundary === undefined || !patches) return null;
  const steps = revertedSteps(messages, boundary);
  const entries = new Set<string>();
  const froms = new Set<string>();
  const tos = new Set<string>();
  const point = (id: string, from: string, to: string): void => {
    entries.add(id);
    froms.add(from);
    tos.add(to);
  };
  for (const s of stepEntries(messages)) if (steps.has(s.id)) point(s.id, s.from, s.to);
  const stepTos = new Set(tos);
  const decided = new Set<string>();
  for (const e of events) {
    if (since !== undefined && e.seq > since) break;
    if (e.type === 'review.decided' && stepTos.has(e.to)) {
      decided.add(e.decisionId);
      point(e.decisionId, e.treeBefore, e.treeAfter);
    } else if (e.type === 'review.undone' && decided.has(e.decisionId))
      point(`undo-${e.seq}`, e.treeBefore, e.treeAfter);
  }
  return { entries, froms, tos, restoredFrom: earliestTree(patches) };
}

/** True when a hunk's new-side range [bStart, bEnd) meets a region's (an empty range is the point between lines). */
function meets(h: { bStart: number; bEnd: number }, r: { bStart: number; bEnd: number }): boolean {
  const lo = Math.max(h.bStart, r.bStart);
  const hi = Math.min(h.bEnd, r.bEnd);
  return h.bStart === h.bEnd || r.bStart === r.bEnd ? lo <= hi : lo < hi;
}

/** Ids of `a`'s hunks that meet a change between `restored` (the file's bytes in the restored tree) and `a.after`. */
function hunksAfterBoundary(a: FileAnalysis, restored: Uint8Array | null): string[] {
  if (a.kind === 'file') {
    const same = restored !== null && a.after !== null && Buffer.compare(Buffer.from(restored), a.after) === 0;
    return same || (restored === null && a.after === null) ? [] : [a.fileHunkId as string];
  }
  if (!restored || !a.after) return a.hunks.map((h) => h.id);
  const regions = lineRegions(splitLines(bytesToLatin1(restored)), splitLines(bytesToLatin1(a.after)));
  return a.hunks.filter((h) => regions.some((r) => meets(h, r))).map((h) => h.id);
}

/**
 * Ids of the hunks of `files` (the analysed diff of target `t`) whose changes the revert took off disk (see the
 * module docstring). Reads a restored file's bytes only for a diff that starts before the boundary.
 */
export async function revertedHunks(
  t: ResolvedTarget,
  files: readonly FileAnalysis[],
  marks: RevertMarks | null,
  snapshots: ReviewSnapshots,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (!marks || !marks.tos.has(t.to)) return out;
  const whole = marks.froms.has(t.from);
  for (const a of files) {
    const tree = marks.restoredFrom.get(a.path) ?? (a.oldPath ? marks.restoredFrom.get(a.oldPath) : undefined);
    if (tree === undefined) continue;
    const ids = a.kind === 'file' ? [a.fileHunkId as string] : a.hunks.map((h) => h.id);
    if (whole) for (const id of ids) out.add(id);
    else for (const id of hunksAfterBoundary(a, (await snapshots.readFile(tree, a.path)) ?? null)) out.add(id);
  }
  return out;
}

/** How a reverted hunk comes back: with unrevert, unless it was rejected before the revert (then it stays so). */
export function revertedAs(state: 'pending' | 'accepted' | 'rejected'): HunkReverted {
  return state === 'rejected' ? 'stays_rejected' : 'unrevert_brings_back';
}
