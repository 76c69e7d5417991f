/**
 * The review feature's calls over the app's contract (rpc/ — the only door to main). Pushed events that change
 * what review shows — a snapshot taken at a step boundary, a session row changed by revert / unrevert, a turn that
 * ended — are folded into one `onChange` signal. The outcome of a revert / unrevert / redo made here goes to the
 * app store too, so files the core kept as the user left them are named in the chat's notice (history-slice.ts).
 */
import { call, on } from '../../rpc';
import { useStore } from '../../stores';
import type { HistoryOp } from '../../stores/types';
import type { CallOutput } from '../../../../shared/contract';
import type { Result } from '../../../../shared/errors';
import type { ReviewApi } from './review-api';

/** Passes a history move's kept files to the app store's notice; answers the result unchanged. */
function noted<T extends CallOutput<'history.revert'>>(op: HistoryOp, r: Result<T>): Result<T> {
  if (r.ok) useStore.getState().noteHistory(op, r.value.session, r.value.kept);
  return r;
}

export const contractReviewApi: ReviewApi = {
  timeline: (sessionId) => call('review.timeline', { sessionId }),
  diff: (sessionId, target) => call('review.diff', { sessionId, target }),
  decide: (input) => call('review.decide', input),
  undo: (sessionId, decisionId) => call('review.undo', { sessionId, ...(decisionId ? { decisionId } : {}) }),
  revertPreview: (sessionId, messageId) => call('review.revertPreview', { sessionId, messageId }),
  revert: async (sessionId, messageId, force) =>
    noted('revert', await call('history.revert', { sessionId, messageId, force })),
  unrevert: async (sessionId) => noted('unrevert', await call('history.unrevert', { sessionId })),
  redo: async (sessionId) => noted('redo', await call('history.redo', { sessionId })),
  subscribe(sessionId, onChange) {
    const offs = [
      on('snapshot.added', (e) => e.sessionId === sessionId && onChange()),
      on('session.updated', (e) => e.session.id === sessionId && onChange()),
      on('session.state', (e) => e.sessionId === sessionId && e.state === 'idle' && onChange()),
      on('message.removed', (e) => e.sessionId === sessionId && onChange()),
    ];
    return () => offs.forEach((off) => off());
  },
};
