/**
 * History slice: the renderer's one home of undo / redo / revert / unrevert (DESIGN §5). Every entry point calls
 * these actions and nothing else calls main's `history.*`: `/undo` and `/redo` typed in the chat (chat-slice.ts),
 * the palette and the application menu (commands.ts), the Revert button on a message and its preview dialog, the
 * reverted banner's Redo / Unrevert, and the notice's "Overwrite them anyway".
 *
 * A move answers the session row after it and the files it kept. The row replaces the listed one (the chat dims what
 * lies after the boundary, the review panel shows its banner); the kept files become the chat's notice
 * (history-notice.ts), whose "Overwrite them anyway" asks first and then reverts to the same boundary with `force`.
 * A failure (busy, nothing to undo…) is the app's error banner. The review panel follows through the pushed session
 * events (review-slice.ts `reviewChanged`). Undo puts the undone prompt back in the input when the input holds
 * nothing of the user's (empty, or the `/undo` that asked) — never over what the user is typing — and redo takes
 * it out again if it is still there as undo left it. The input changes once the move is done, not before.
 */
import { call } from '../rpc';
import type { KeptFile, Session } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import { historyNotice, type HistoryOp } from './history-notice';
import { withSession } from './sessions-slice';
import type { HistorySlice, Slice } from './types';

/** The input holds nothing of the user's: empty, or the `/undo` / `/redo` command that asked for this move. */
function idle(draft: string): boolean {
  const d = draft.trim();
  return d === '' || d === '/undo' || d === '/redo';
}

export const createHistorySlice: Slice<HistorySlice> = (set, get) => {
  /** The prompt text undo put in the input, while it may still be there untouched. */
  let restored: string | null = null;

  /** Takes a move's answer: the session row and the notice. False when it failed (the error banner says why). */
  const moved = (op: HistoryOp, r: Result<{ session: Session; kept: KeptFile[] }>): boolean => {
    if (!r.ok) {
      get().showError(r.error);
      return false;
    }
    const { session, kept } = r.value;
    set({
      sessions: withSession(get().sessions, session),
      historyNotice: historyNotice(op, session, kept),
      overwriteAsked: false,
    });
    return true;
  };

  return {
    revertPreview: null,
    historyNotice: null,
    overwriteAsked: false,
    async undo() {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const r = await call('history.undo', { sessionId });
      if (!moved('undo', r) || !r.ok) return;
      const text = r.value.text ?? '';
      if (get().sessionId !== sessionId || !idle(get().draft)) return;
      restored = text === '' ? null : text;
      set({ draft: text });
    },
    async redo() {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      if (!moved('redo', await call('history.redo', { sessionId }))) return;
      if (idle(get().draft) || get().draft === restored) set({ draft: '' });
      restored = null;
    },
    async unrevert() {
      const sessionId = get().sessionId;
      if (sessionId) moved('unrevert', await call('history.unrevert', { sessionId }));
    },
    async previewRevert(messageId) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const r = await call('review.revertPreview', { sessionId, messageId });
      if (!r.ok) return get().showError(r.error);
      if (get().sessionId === sessionId) set({ revertPreview: { sessionId, messageId, preview: r.value } });
    },
    async confirmRevert(force = false) {
      const p = get().revertPreview;
      if (!p) return;
      set({ revertPreview: null });
      moved('revert', await call('history.revert', { sessionId: p.sessionId, messageId: p.messageId, force }));
    },
    cancelRevert() {
      set({ revertPreview: null });
    },
    askOverwrite() {
      if (get().historyNotice?.overwrite) set({ overwriteAsked: true });
    },
    cancelOverwrite() {
      set({ overwriteAsked: false });
    },
    async overwriteKept() {
      const notice = get().historyNotice;
      if (!notice?.overwrite || !get().overwriteAsked) return;
      set({ overwriteAsked: false });
      const r = await call('history.revert', { sessionId: notice.sessionId, ...notice.overwrite, force: true });
      moved(notice.op, r);
    },
    dismissHistoryNotice() {
      set({ historyNotice: null, overwriteAsked: false });
    },
  };
};
