/**
 * What a history move (undo / redo / revert / unrevert) left alone, as the chat's notice. The session core never
 * overwrites a file the user changed after the agent unless asked with `force` (fixtures/bugs/README.md B31); it
 * skips the file and lists it. The notice names each file and why, and — when one of them could be overwritten —
 * carries the boundary a forced revert would go back to: the SAME boundary (re-running undo would move one turn
 * further back). Unrevert — and a redo that reached the end, which is an unrevert — leaves no boundary to force, so
 * its notice only informs; a file no snapshot holds, or one in a repository's own git folder, is never forced.
 */
import type { KeptFile, Session } from '../../../shared/contract';

export type HistoryOp = 'undo' | 'redo' | 'revert' | 'unrevert';

/** Files a history move kept as the user left them; `overwrite` is the boundary a forced revert would use. */
export interface HistoryNotice {
  op: HistoryOp;
  sessionId: string;
  kept: KeptFile[];
  overwrite: { messageId: string; partId?: string } | null;
}

/** The reason of a kept file in plain words. */
export function keptReason(reason: KeptFile['reason']): string {
  if (reason === 'changed_after_step') return 'you changed it after the agent did';
  if (reason === 'changed_after_revert') return 'you changed it after the revert put it back';
  if (reason === 'not_captured') return 'no snapshot holds it (it was ignored or too large), so it is never deleted';
  if (reason === 'git_dir')
    return "NOT restored: the agent changed the repository's own git folder, which Landfall keeps no copy of";
  return 'the file could not be written';
}

/** The notice of a move that kept `kept` (the session as the move left it), or null when it kept nothing. */
export function historyNotice(op: HistoryOp, session: Session, kept: KeptFile[]): HistoryNotice | null {
  if (kept.length === 0) return null;
  const b = session.revert;
  // Only files the user changed can be overwritten by force; one no snapshot holds (or a .git file) never is.
  const forceable = kept.some((k) => k.reason === 'changed_after_step' || k.reason === 'changed_after_revert');
  const overwrite =
    op !== 'unrevert' && b && forceable
      ? { messageId: b.messageId, ...(b.partId !== undefined ? { partId: b.partId } : {}) }
      : null;
  return { op, sessionId: session.id, kept, overwrite };
}
