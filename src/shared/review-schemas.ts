/**
 * Review shapes that cross the renderer ⇄ main boundary (DESIGN §5 per-hunk review, §8 timeline):
 * timeline entries, review targets, per-file diffs with hunks and their decision state, decisions and conflicts.
 * Zod schemas plus inferred types, so main (src/main/session/review*) and the renderer share one definition.
 */
import { z } from 'zod';
import { RevertConflictSchema } from './history-schemas';

const id = z.string().min(1).max(200);

/** One point on the timeline: an agent step (step-start → step-finish trees) or a review decision's own snapshot. */
export const TimelineEntrySchema = z.object({
  id,
  kind: z.enum(['step', 'decision']),
  /** Position on the timeline, 0-based. */
  index: z.number().int().nonnegative(),
  /** The assistant message of a step; the message a decision's hunks belong to (if one). */
  messageId: z.string().optional(),
  /** Tree hash before / after this point. */
  from: z.string(),
  to: z.string(),
  time: z.number(),
  /** Tool names of the step (or ['accept'] / ['reject'] for a decision). */
  tools: z.array(z.string()),
  /** Root-relative paths changed at this point. */
  files: z.array(z.string()),
  label: z.string(),
  /** A decision that was undone since. */
  undone: z.boolean().optional(),
  /**
   * The session is reverted and this point lies after the boundary: its changes are not on disk (the revert took
   * them off; unrevert brings them back). Set by main (session/review/reverted.ts).
   */
  reverted: z.boolean().optional(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

/**
 * What to diff: a timeline point against the previous point, the session start, or the work tree now; a whole turn
 * (first step-start → last step-finish of an assistant message); the whole session.
 */
export const ReviewTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('point'), entryId: id, against: z.enum(['previous', 'start', 'now']) }),
  z.object({ kind: z.literal('turn'), messageId: id }),
  z.object({ kind: z.literal('session') }),
]);
export type ReviewTarget = z.infer<typeof ReviewTargetSchema>;

export const HunkStateSchema = z.enum(['pending', 'accepted', 'rejected']);
export type HunkState = z.infer<typeof HunkStateSchema>;

/**
 * A hunk whose change the session's revert took off disk (session/review/reverted.ts): `unrevert_brings_back` —
 * unrevert puts it back (it was pending or kept); `stays_rejected` — it was rejected before the revert, and unrevert
 * keeps it rejected. Such a hunk takes no Keep / Reject / Undo until the session is unreverted (error `reverted`).
 */
export const HunkRevertedSchema = z.enum(['unrevert_brings_back', 'stays_rejected']);
export type HunkReverted = z.infer<typeof HunkRevertedSchema>;

/**
 * A hunk with its decision state. Line numbers are 1-based; when `oldLines`/`newLines` is 0, `oldStart`/`newStart`
 * is the line before which nothing/everything sits (0-based index + 1). `kind: 'file'` is a whole-file hunk
 * (added, deleted, renamed, binary or too-large files): rejecting it restores the whole file.
 */
export const ReviewHunkSchema = z.object({
  id,
  kind: z.enum(['lines', 'file']),
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  /** Display lines prefixed ' ', '-', '+' (capped; see `linesTruncated`). */
  lines: z.array(z.string()),
  linesTruncated: z.boolean().optional(),
  state: HunkStateSchema,
  decisionId: z.string().optional(),
  /** Set while the session is reverted and the revert took this hunk's change off disk. */
  reverted: HunkRevertedSchema.optional(),
});
export type ReviewHunk = z.infer<typeof ReviewHunkSchema>;

/** Why a file's text is not sent whole to the renderer (fixtures/bugs/README.md B40): binary, over the size limit, or very long lines. */
export const ViewGuardSchema = z.enum(['binary', 'too_large', 'long_lines']);

export const ReviewFileSchema = z.object({
  path: z.string(),
  status: z.enum(['added', 'deleted', 'modified', 'renamed']),
  oldPath: z.string().optional(),
  /** Text before / after (UTF-8 for display); absent when guarded or when the side does not exist. */
  before: z.string().optional(),
  after: z.string().optional(),
  guard: ViewGuardSchema.optional(),
  beforeSize: z.number().int().nonnegative(),
  afterSize: z.number().int().nonnegative(),
  /** Short content hashes (sha1 hex, 12 chars) of each side, shown for binary files. */
  beforeHash: z.string().optional(),
  afterHash: z.string().optional(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  hunks: z.array(ReviewHunkSchema),
});
export type ReviewFile = z.infer<typeof ReviewFileSchema>;

export const ReviewDiffSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Key the hunk ids of this diff derive from (`from..to`). */
  scope: z.string(),
  files: z.array(ReviewFileSchema),
});
export type ReviewDiff = z.infer<typeof ReviewDiffSchema>;

/** A diff's scope (`ReviewDiff.scope`: two tree hashes joined by `..`), as a caller names the diff it shows. */
const scope = z.string().min(1).max(200);

/**
 * Keep or reject hunks of a target: the listed `hunkIds`, or every pending hunk (of `path`, or of the target).
 * `scope` is the scope of the diff the caller shows for that target (default: the target's scope before the
 * decision); when the target's diff after the decision has another scope, the answer carries the whole new diff.
 */
export const DecideInputSchema = z.object({
  sessionId: id,
  target: ReviewTargetSchema,
  action: z.enum(['accept', 'reject']),
  hunkIds: z.array(id).max(10_000).optional(),
  path: z.string().min(1).max(4096).optional(),
  scope: scope.optional(),
});
export type DecideInput = z.infer<typeof DecideInputSchema>;

/**
 * Undo a decision: `decisionId`, or the latest one still in force. With `target` (and the `scope` of the diff the
 * caller shows for it), the answer carries that target's whole new diff when the undo moved its trees.
 */
export const UndoInputSchema = z.object({
  sessionId: id,
  decisionId: id.optional(),
  target: ReviewTargetSchema.optional(),
  scope: scope.optional(),
});
export type UndoInput = z.infer<typeof UndoInputSchema>;

export const DecisionSchema = z.object({
  decisionId: z.string(),
  action: z.enum(['accept', 'reject']),
  hunkIds: z.array(z.string()),
  /** Files written / deleted on disk (reject only). */
  written: z.array(z.string()),
  deleted: z.array(z.string()),
  /** Tree hash after the decision: its own point on the timeline. */
  snapshot: z.string(),
  seq: z.number().int(),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** A hunk a decision (or its undo) moved to a new state: its id, the file it is in, the state now. */
export const HunkStateChangeSchema = z.object({
  id: z.string(),
  path: z.string(),
  state: HunkStateSchema,
  decisionId: z.string().optional(),
});
export type HunkStateChange = z.infer<typeof HunkStateChangeSchema>;

/**
 * The answer of `review.decide` and `review.undo`: what the change did and everything a view needs to redraw,
 * so one click costs one call (main computes the target's diff once, for the decision itself).
 * - `hunks`: every hunk whose state moved (in the scope the decision was made in). Per-file and per-target pending
 *   counts follow from the states; the diffs' text, files and hunk ids are unchanged.
 * - `diff`: only when the target's trees moved — a target compared with the work tree now ("now") after the change
 *   wrote files — the target's whole new diff (new scope, so new hunk ids); the caller replaces what it shows.
 * - `timeline`: the timeline entries the change added or altered (a decision's own point; an undo's point and the
 *   undone decision's `undone` flag), each with its `index`; every other entry is as it was.
 */
export const ReviewChangeSchema = z.object({
  decision: DecisionSchema,
  hunks: z.array(HunkStateChangeSchema),
  diff: ReviewDiffSchema.optional(),
  timeline: z.array(TimelineEntrySchema),
});
export type ReviewChange = z.infer<typeof ReviewChangeSchema>;

/** One hunk that could not be rejected: the lines it produced changed since (error `conflict`, `data.conflicts`). */
export const HunkConflictSchema = z.object({
  hunkId: z.string(),
  path: z.string(),
  /** 1-based line range in the file as it is now where the hunk's lines were expected (fromLine > toLine: none). */
  fromLine: z.number().int(),
  toLine: z.number().int(),
  /** The lines the hunk produced (display text). */
  expected: z.array(z.string()),
  reason: z.enum(['lines_changed', 'file_changed', 'file_missing', 'file_exists']),
});
export type HunkConflict = z.infer<typeof HunkConflictSchema>;

/** What reverting to a message would do (the session core's revert in preview mode): nothing is written. */
export const RevertPreviewSchema = z.object({
  restored: z.array(z.string()),
  deleted: z.array(z.string()),
  /** Files the user changed after the agent's step: a plain revert is refused; a forced one overwrites them. */
  conflicts: z.array(RevertConflictSchema),
  diff: z.string(),
});
export type RevertPreview = z.infer<typeof RevertPreviewSchema>;
