/**
 * The review feature's calls over the app's contract (rpc/ — the only door to main). Pushed events that change
 * what review shows — a snapshot taken at a step boundary, a session row changed by revert / unrevert, a turn that
 * ended — are folded into one `onChange` signal.
 */
import { call, on } from '../../rpc';
import type { ReviewApi } from './review-api';

export const contractReviewApi: ReviewApi = {
  timeline: (sessionId) => call('review.timeline', { sessionId }),
  diff: (sessionId, target) => call('review.diff', { sessionId, target }),
  decide: (input) => call('review.decide', input),
  undo: (sessionId, decisionId) => call('review.undo', { sessionId, ...(decisionId ? { decisionId } : {}) }),
  revertPreview: (sessionId, messageId) => call('review.revertPreview', { sessionId, messageId }),
  revert: (sessionId, messageId, force) => call('history.revert', { sessionId, messageId, force }),
  unrevert: (sessionId) => call('history.unrevert', { sessionId }),
  redo: (sessionId) => call('history.redo', { sessionId }),
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
