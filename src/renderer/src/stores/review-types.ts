/**
 * The review slice's shape (review-slice.ts): the open session's timeline, the selected point, what it is compared
 * against, its diff, the focused file and hunk, and the decision actions. What the panel draws sits under one key,
 * `review`, so the other slices' names never meet it; the actions sit beside it, named for what they do.
 */
import type { HunkConflict, ReviewDiff, TimelineEntry } from '../../../shared/review-schemas';
import type { HunkPos } from './review-nav';

export type Against = 'previous' | 'turn' | 'start' | 'now';

/** What the panel reports after an action: a conflict (with its hunks), an error, or plain information. */
export type ReviewNotice =
  { kind: 'conflict'; text: string; conflicts: HunkConflict[] } | { kind: 'error' | 'info'; text: string };

/** What the review panel shows. */
export interface ReviewView {
  /** The session the timeline belongs to (the open session, once its timeline loaded). */
  sessionId: string | null;
  timeline: TimelineEntry[];
  /** Index of the selected point on the timeline. */
  selected: number;
  against: Against;
  /** The selected point's diff, and the key (session | point | against) it was loaded for. */
  diff: ReviewDiff | null;
  diffKey: string | null;
  loading: boolean;
  /** Index of the file shown, and the focused hunk. */
  file: number;
  pos: HunkPos | null;
  sideBySide: boolean;
  /** A decision is on its way to main (decision buttons wait). */
  deciding: boolean;
  notice: ReviewNotice | null;
}

export interface ReviewSlice {
  review: ReviewView;
  /** Shows `sessionId`'s timeline (null: none). Called by the sessions and projects slices when the open session changes. */
  openReview(sessionId: string | null): Promise<void>;
  /** Reloads timeline and diff from main (after a change made elsewhere: a step finished, a revert, a reconnect). */
  refreshReview(): Promise<void>;
  /**
   * A pushed event changed what review shows for `sessionId` (a snapshot taken, the session row changed, a turn
   * ended, messages removed): one `refreshReview()` per burst, after REFRESH_MS of quiet.
   */
  reviewChanged(sessionId: string): void;
  /** Moves the selection (cheap: the diff loads once the pointer rests, SETTLE_MS). */
  selectPoint(index: number): void;
  movePoint(delta: number): void;
  setAgainst(against: Against): void;
  setSideBySide(on: boolean): void;
  selectFile(index: number): void;
  focusHunk(pos: HunkPos | null): void;
  /**
   * The user put the diff editor's cursor on `line` (of the new text, or of the old one in side-by-side's left
   * side): the hunk there becomes the focused one, so the review keys act on what the user is looking at. A line
   * outside every hunk keeps the focus where it was.
   */
  focusLine(line: number, side: 'modified' | 'original'): void;
  nextHunk(dir: 1 | -1): void;
  /** Keep / reject one hunk (the focused one by default): one `review.decide` call, the view redrawn from its answer. */
  decideHunk(action: 'accept' | 'reject', hunkId?: string): Promise<void>;
  /** Keep / reject every pending hunk of `path`, or of the whole point. */
  decideAll(action: 'accept' | 'reject', path?: string): Promise<void>;
  /** Undoes a decision (the latest in force by default): one `review.undo` call. */
  undoDecision(decisionId?: string): Promise<void>;
  dismissReviewNotice(): void;
}
