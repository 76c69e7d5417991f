/**
 * History notice slice: what an undo / redo / revert / unrevert left alone. The session core never overwrites a
 * file the user changed after the agent (B31) unless asked with `force`; it skips it and lists it. This slice turns
 * that list into the chat's notice and owns the explicit "Overwrite them anyway" path: ask for confirmation, then
 * revert to the SAME boundary with `force` (re-running undo would move one turn further back). Unrevert — and a redo
 * that reached the end, which is an unrevert — has no boundary left to force, so its notice only informs.
 */
import { call } from '../rpc';
import type { KeptFile, Session } from '../../../shared/contract';
import type { HistoryOp, HistorySlice, Slice } from './types';

/** The reason of a kept file in plain words. */
export function keptReason(reason: KeptFile['reason']): string {
  if (reason === 'changed_after_step') return 'you changed it after the agent did';
  if (reason === 'changed_after_revert') return 'you changed it after the revert put it back';
  if (reason === 'not_captured') return 'no snapshot holds it (it was ignored or too large), so it is never deleted';
  if (reason === 'git_dir')
    return "NOT restored: the agent changed the repository's own git folder, which Landfall keeps no copy of";
  return 'the file could not be written';
}

export const createHistorySlice: Slice<HistorySlice> = (set, get) => ({
  historyNotice: null,
  overwriteAsked: false,
  noteHistory(op: HistoryOp, session: Session, kept: KeptFile[]) {
    if (kept.length === 0) return set({ historyNotice: null, overwriteAsked: false });
    const b = session.revert;
    // Only files the user changed can be overwritten by force; one no snapshot holds (or a .git file) never is.
    const forceable = kept.some((k) => k.reason === 'changed_after_step' || k.reason === 'changed_after_revert');
    const target =
      op !== 'unrevert' && b && forceable
        ? { messageId: b.messageId, ...(b.partId !== undefined ? { partId: b.partId } : {}) }
        : null;
    set({ historyNotice: { op, sessionId: session.id, kept, overwrite: target }, overwriteAsked: false });
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
    if (!r.ok) return get().showError(r.error);
    get().noteHistory(notice.op, r.value.session, r.value.kept);
    await get().reloadSession(notice.sessionId);
  },
  dismissHistoryNotice() {
    set({ historyNotice: null, overwriteAsked: false });
  },
});
