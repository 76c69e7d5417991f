/**
 * The notice after an undo / redo / revert / unrevert that kept files as the user left them (the store decides:
 * stores/history-slice.ts, stores/history-notice.ts). It names each file and why; "Overwrite them anyway" asks
 * before forcing.
 */
import { memo } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { keptReason } from '../../stores/history-notice';

const DONE: Record<string, string> = { undo: 'Undone', redo: 'Redone', revert: 'Reverted', unrevert: 'Unreverted' };

// memo: no props, so the chat's re-render per streamed frame skips it; its store selectors alone wake it.
export const HistoryNotice = memo(function HistoryNotice(): React.JSX.Element | null {
  const notice = useStore((s) => (s.historyNotice?.sessionId === s.sessionId ? s.historyNotice : null));
  const asked = useStore((s) => s.overwriteAsked);
  const ask = useStore((s) => s.askOverwrite);
  const cancel = useStore((s) => s.cancelOverwrite);
  const overwrite = useStore((s) => s.overwriteKept);
  const dismiss = useStore((s) => s.dismissHistoryNotice);
  if (!notice) return null;
  const n = notice.kept.length;
  return (
    <div className="history-notice" role="alert" data-testid="history-notice" data-op={notice.op}>
      <p className="history-notice-title">
        {DONE[notice.op]}, except {n === 1 ? 'one file' : `${n} files`} kept as you left {n === 1 ? 'it' : 'them'}:
      </p>
      <ul>
        {notice.kept.map((k) => (
          <li key={k.path} data-testid="kept-file" data-path={k.path} data-reason={k.reason}>
            <code>{k.path}</code> — {keptReason(k.reason)}
          </li>
        ))}
      </ul>
      {asked ? (
        <p className="history-notice-confirm" data-testid="overwrite-confirm-text">
          Replace your changes to {n === 1 ? 'this file' : `these ${n} files`} with the version from before the agent?
          Your edits there are lost.
          <button type="button" className="danger" data-testid="overwrite-confirm" onClick={() => void overwrite()}>
            Yes, overwrite
          </button>
          <button type="button" data-testid="overwrite-cancel" onClick={cancel}>
            Cancel
          </button>
        </p>
      ) : (
        <p className="history-notice-actions">
          {notice.overwrite ? (
            <button type="button" data-testid="overwrite-kept" onClick={ask}>
              Overwrite them anyway
            </button>
          ) : null}
          <button type="button" data-testid="history-notice-dismiss" onClick={dismiss}>
            Keep my changes
          </button>
        </p>
      )}
    </div>
  );
});
