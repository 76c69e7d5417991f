/**
 * Resolve a review target to a pair of trees and analyse every file changed between them:
 * point vs previous (the step's own diff), point vs session start, point vs now (a fresh track of the work tree),
 * a turn (first step-start → last step-finish of a message), the whole session (start → last point).
 */
import { fail, ok, type Result } from '../../../shared/errors';
import type { ReviewTarget, TimelineEntry } from '../../../shared/review-schemas';
import type { ReviewSnapshots } from './context';
import { analyseFile, type FileAnalysis } from './file-analysis';

export interface ResolvedTarget {
  from: string;
  to: string;
  scope: string;
  messageId?: string;
}

function unknownTarget(what: string): Result<never> {
  return fail(
    'invalid_input',
    `No ${what} on this session's timeline.`,
    'Reload the timeline and pick a point that exists.',
  );
}

/**
 * The trees a target compares. `timeline` is the session's (buildTimeline). `now`: a tree of the work tree just
 * taken (a decision's tree after its writes), used for a target against "now" instead of tracking again.
 */
export async function resolveTarget(
  target: ReviewTarget,
  timeline: readonly TimelineEntry[],
  snapshots: ReviewSnapshots,
  now?: string,
): Promise<Result<ResolvedTarget>> {
  const first = timeline[0];
  const pair = (from: string, to: string, messageId?: string): Result<ResolvedTarget> =>
    ok({ from, to, scope: `${from}..${to}`, ...(messageId ? { messageId } : {}) });
  if (target.kind === 'session') {
    const last = timeline[timeline.length - 1];
    if (!first || !last) return unknownTarget('step');
    return pair(first.from, last.to);
  }
  if (target.kind === 'turn') {
    const steps = timeline.filter((e) => e.kind === 'step' && e.messageId === target.messageId);
    const a = steps[0];
    const b = steps[steps.length - 1];
    if (!a || !b) return unknownTarget(`step of message ${target.messageId}`);
    return pair(a.from, b.to, target.messageId);
  }
  const entry = timeline.find((e) => e.id === target.entryId);
  if (!entry || !first) return unknownTarget(`point ${target.entryId}`);
  if (target.against === 'previous') return pair(entry.from, entry.to, entry.messageId);
  if (target.against === 'start') return pair(first.from, entry.to, entry.messageId);
  return pair(entry.to, now ?? (await snapshots.track()), entry.messageId);
}

/** Analyse every file changed between the target's trees (bytes from the snapshot store). */
export async function loadFiles(t: ResolvedTarget, snapshots: ReviewSnapshots): Promise<FileAnalysis[]> {
  if (t.from === t.to) return [];
  const diffs = await snapshots.diffFull(t.from, t.to);
  const out: FileAnalysis[] = [];
  for (const d of diffs) {
    const before = d.status === 'added' ? null : await snapshots.readFile(t.from, d.oldPath ?? d.path);
    const after = d.status === 'deleted' ? null : await snapshots.readFile(t.to, d.path);
    out.push(analyseFile(t.scope, d, before ? Buffer.from(before) : null, after ? Buffer.from(after) : null));
  }
  return out;
}
