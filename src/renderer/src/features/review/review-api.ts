/**
 * The calls the review feature makes, as one small interface so the store can be driven by the real contract
 * (`contractReviewApi`, through rpc/) or by a bench harness with canned data.
 */
import type { Result } from '../../../../shared/errors';
import type {
  DecideInput,
  ReviewChange,
  ReviewDiff,
  ReviewTarget,
  RevertPreview,
  TimelineEntry,
} from '../../../../shared/review-schemas';

export type { RevertPreview };

export interface ReviewApi {
  timeline(sessionId: string): Promise<Result<TimelineEntry[]>>;
  diff(sessionId: string, target: ReviewTarget): Promise<Result<ReviewDiff>>;
  decide(input: DecideInput): Promise<Result<ReviewChange>>;
  undo(sessionId: string, decisionId?: string): Promise<Result<ReviewChange>>;
  revertPreview(sessionId: string, messageId: string): Promise<Result<RevertPreview>>;
  revert(sessionId: string, messageId: string, force: boolean): Promise<Result<unknown>>;
  unrevert(sessionId: string): Promise<Result<unknown>>;
  /** Move the revert boundary one message forward (the session core's redo). */
  redo(sessionId: string): Promise<Result<unknown>>;
  /** Calls `onChange` when the session's steps, revert state or decisions change (pushed events); returns unsubscribe. */
  subscribe?(sessionId: string, onChange: () => void): () => void;
}
