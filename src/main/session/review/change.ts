/**
 * What a decision or its undo changed, in the shape a view redraws from (ReviewChange in src/shared/review-schemas.ts),
 * so a Keep / Reject / Undo click costs the renderer one call and main one computation of the target's diff:
 * - the hunks whose state moved — a fold over the session's review events, no diff needed;
 * - the timeline entries the change added or altered — the timeline rebuilt from the messages already read and the
 *   events after the change, compared entry by entry with the one before;
 * - the target's whole new diff, only when its trees moved and so the caller's diff is another one: a target against
 *   "now" after the change wrote the work tree (its "to" is the decision's tree after), or the whole session (its
 *   last point is the new decision). That is the one case that analyses the files a second time, since the bytes
 *   being compared are new.
 * Nothing here writes.
 */
import type {
  Decision,
  HunkReverted,
  HunkState,
  HunkStateChange,
  ReviewChange,
  ReviewDiff,
  ReviewTarget,
  TimelineEntry,
} from '../../../shared/review-schemas';
import type { MessageWithParts, RevertState } from '../../../shared/model';
import type { ReviewSnapshots } from './context';
import { toReviewFile, type FileAnalysis } from './file-analysis';
import { loadFiles, resolveTarget, type ResolvedTarget } from './load';
import { hunkStates, type ReviewEvent } from './log';
import { revertedAs, revertedHunks, revertMarks, type RevertMarks } from './reverted';
import { buildTimeline } from './timeline';

type States = ReturnType<typeof hunkStates>;

/**
 * The review diff of a resolved target: every analysed file with each hunk's state from `states` (pending if none),
 * and the hunks in `reverted` (what the session's revert took off disk: reverted.ts) marked as such.
 */
export function toReviewDiff(
  t: ResolvedTarget,
  files: readonly FileAnalysis[],
  states: States,
  reverted: ReadonlySet<string> = new Set(),
): ReviewDiff {
  const stateOf = (id: string): { state: HunkState; decisionId?: string; reverted?: HunkReverted } => {
    const s = states.get(id) ?? { state: 'pending' as const };
    return reverted.has(id) ? { ...s, reverted: revertedAs(s.state) } : s;
  };
  return { from: t.from, to: t.to, scope: t.scope, files: files.map((a) => toReviewFile(a, stateOf)) };
}

/** Entries of `after` that are new or differ from the entry with the same id in `before` (index included). */
export function changedEntries(before: readonly TimelineEntry[], after: readonly TimelineEntry[]): TimelineEntry[] {
  const old = new Map(before.map((e) => [e.id, JSON.stringify(e)]));
  return after.filter((e) => old.get(e.id) !== JSON.stringify(e));
}

/** The view a change is answered for: its target, and the scope of the diff it shows for it. */
export interface ChangeView {
  target: ReviewTarget;
  scope: string;
}

export interface ChangeFacts {
  decision: Decision;
  /** The hunks the decision names, with the file each is in. */
  hunks: readonly { id: string; path: string }[];
  /** The session's messages (unchanged by a decision), its revert in force, and its timeline before the change. */
  messages: MessageWithParts[];
  revert: RevertState | undefined;
  /** The log sequence at which that revert wrote the work tree (ReviewLog.revertSeq). */
  revertSeq?: number | undefined;
  before: readonly TimelineEntry[];
  /** The session's review events after the change. */
  events: readonly ReviewEvent[];
  view?: ChangeView;
  snapshots: ReviewSnapshots;
}

/** True when the change can have moved the trees `target` compares (see the module docstring). */
function treesMayMove(target: ReviewTarget, d: Decision): boolean {
  if (target.kind === 'session') return true;
  const wrote = d.written.length + d.deleted.length > 0;
  return wrote && target.kind === 'point' && target.against === 'now';
}

/**
 * The target's whole diff after the change, when it is not the one the caller shows (`view.scope`); undefined
 * when it is. A target that no longer resolves answers undefined too: the decision stands, the caller reloads.
 */
async function newDiff(
  f: ChangeFacts,
  timeline: readonly TimelineEntry[],
  states: States,
  marks: RevertMarks | null,
): Promise<ReviewDiff | undefined> {
  if (!f.view || !treesMayMove(f.view.target, f.decision)) return undefined;
  const t = await resolveTarget(f.view.target, timeline, f.snapshots, f.decision.snapshot);
  if (!t.ok || t.value.scope === f.view.scope) return undefined;
  const files = await loadFiles(t.value, f.snapshots);
  return toReviewDiff(t.value, files, states, await revertedHunks(t.value, files, marks, f.snapshots));
}

/** The ReviewChange of a decision or undo that just happened (see the module docstring). */
export async function describeChange(f: ChangeFacts): Promise<ReviewChange> {
  const states = hunkStates(f.events);
  const hunks: HunkStateChange[] = f.hunks.map((h) => ({
    id: h.id,
    path: h.path,
    ...(states.get(h.id) ?? { state: 'pending' as const }),
  }));
  const marks = revertMarks(f.messages, f.events, f.revert, f.revertSeq);
  const timeline = buildTimeline(f.messages, f.events, marks);
  const diff = await newDiff(f, timeline, states, marks);
  return { decision: f.decision, hunks, ...(diff ? { diff } : {}), timeline: changedEntries(f.before, timeline) };
}
