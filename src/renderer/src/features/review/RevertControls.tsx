/**
 * Revert / unrevert controls (DESIGN §5): a Revert button for any message (it first previews the files the revert
 * will change and the conflicts — files the user changed after the agent — then applies on confirmation); the
 * banner shown while the session is reverted (Redo / Unrevert); and the notice bar with the outcome of the last
 * review action (a conflict names its file and lines). The moves are the history slice's (stores/history-slice.ts),
 * the same actions `/undo`, `/redo` and the palette run.
 */
import type React from 'react';
import { useStore } from '../../stores';

/** Revert to just before `messageId` (with preview). Mounted on each message row. */
export function RevertButton({ messageId }: { messageId: string }): React.JSX.Element {
  const preview = useStore((s) => s.previewRevert);
  return (
    <button
      type="button"
      className="revert-button"
      data-testid="revert-message"
      title="Revert the project to before this message"
      onClick={() => void preview(messageId)}
    >
      Revert
    </button>
  );
}

/** The preview of a pending revert: files restored / deleted, conflicts; Confirm, Overwrite (force), Cancel. */
export function RevertDialog(): React.JSX.Element | null {
  const revert = useStore((s) => (s.revertPreview?.sessionId === s.sessionId ? s.revertPreview : null));
  const confirm = useStore((s) => s.confirmRevert);
  const cancel = useStore((s) => s.cancelRevert);
  if (!revert) return null;
  const { restored, deleted, conflicts } = revert.preview;
  return (
    <div className="revert-dialog" role="dialog" aria-label="Revert preview" data-testid="revert-dialog">
      <p>Reverting to before this message changes {restored.length + deleted.length} file(s):</p>
      <ul data-testid="revert-files">
        {restored.map((p) => (
          <li key={`r${p}`}>{p}</li>
        ))}
        {deleted.map((p) => (
          <li key={`d${p}`}>{p} (deleted)</li>
        ))}
      </ul>
      {conflicts.length > 0 ? (
        <p className="revert-conflicts" data-testid="revert-conflicts">
          Changed after the agent (your edits would be lost): {conflicts.map((c) => c.path).join(', ')}
        </p>
      ) : null}
      <button
        type="button"
        data-testid="revert-confirm"
        disabled={conflicts.length > 0}
        onClick={() => void confirm(false)}
      >
        Revert
      </button>
      {conflicts.length > 0 ? (
        <button type="button" data-testid="revert-force" onClick={() => void confirm(true)}>
          Revert and overwrite
        </button>
      ) : null}
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

/** Shown while the session is reverted: messages after the boundary stay dimmed until the next message is sent. */
export function RevertBanner(): React.JSX.Element | null {
  const reverted = useStore((s) => s.sessions.some((x) => x.id === s.sessionId && Boolean(x.revert)));
  const unrevert = useStore((s) => s.unrevert);
  const redo = useStore((s) => s.redo);
  if (!reverted) return null;
  return (
    <div className="revert-banner" role="status" data-testid="revert-banner">
      Reverted — the files are as they were before the dimmed messages. Sending a message discards them.
      <button type="button" data-testid="revert-redo" onClick={() => void redo()}>
        Redo
      </button>
      <button type="button" data-testid="revert-unrevert" onClick={() => void unrevert()}>
        Unrevert
      </button>
    </div>
  );
}

/** The outcome of the last review action. */
export function ReviewNoticeBar(): React.JSX.Element | null {
  const notice = useStore((s) => s.review.notice);
  const dismiss = useStore((s) => s.dismissReviewNotice);
  if (!notice) return null;
  return (
    <div
      className={`review-notice kind-${notice.kind}`}
      role="alert"
      data-testid="review-notice"
      data-kind={notice.kind}
    >
      <span>{notice.text}</span>
      {notice.kind === 'conflict' ? (
        <ul>
          {notice.conflicts.map((c) => (
            <li key={c.hunkId} data-testid="review-conflict">
              {c.path}:{' '}
              {c.reason === 'lines_changed'
                ? `lines ${c.fromLine}–${c.toLine} changed since`
                : c.reason.replace('_', ' ')}
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" onClick={dismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
