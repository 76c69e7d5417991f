/**
 * The review panel (issue 8, DESIGN §8): timeline strip on top; at the selected point, the changed files and the
 * Monaco diff against the previous point, the session start, or now; Keep / Reject per hunk, per file and for the
 * whole point; next / previous change; the outcome of the last action (conflicts name their lines).
 * Mount with the open session's id; the store does the rest. Focus stays where the user puts it (bug B41).
 */
import { useEffect } from 'react';
import type React from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useReviewStore, type Against, type ReviewState } from './review-store';
import type { ReviewApi } from './review-api';
import { hunkAt } from './nav';
import { TimelineStrip } from './TimelineStrip';
import { FileList } from './FileList';
import { DiffView } from './DiffView';
import { handleReviewKey } from './shortcuts';
import { ReviewNoticeBar, RevertBanner, RevertDialog } from './RevertControls';
import type { Session } from '../../../../shared/model';
import './review.css';

/** What the panel draws, picked field by field: `useShallow` keeps the panel still unless one of them changed. */
function pick(x: ReviewState) {
  return {
    timeline: x.timeline,
    selected: x.selected,
    against: x.against,
    diff: x.diff,
    file: x.file,
    pos: x.pos,
    sideBySide: x.sideBySide,
    deciding: x.deciding,
    loading: x.loading,
    setAgainst: x.setAgainst,
    setSideBySide: x.setSideBySide,
    nextHunk: x.nextHunk,
    decideAll: x.decideAll,
    decideHunk: x.decideHunk,
    selectFile: x.selectFile,
    undo: x.undo,
  };
}

export function ReviewPanel({
  sessionId,
  session,
  api,
}: {
  sessionId: string | null;
  session?: Session | undefined;
  api: ReviewApi;
}): React.JSX.Element {
  const s = useReviewStore(useShallow(pick));
  const connect = useReviewStore((x) => x.connect);
  const open = useReviewStore((x) => x.open);
  const watch = useReviewStore((x) => x.watch);
  const connected = useReviewStore((x) => x.api);
  useEffect(() => connect(api), [api, connect]);
  useEffect(() => {
    if (connected) void open(sessionId);
  }, [sessionId, connected, open]);
  useEffect(() => (connected && sessionId ? watch(sessionId) : undefined), [sessionId, connected, watch]);

  const entry = s.timeline[s.selected];
  const file = s.diff?.files[s.file];
  const focused = hunkAt(s.diff, s.pos);
  const pending = s.diff?.files.reduce((n, f) => n + f.hunks.filter((h) => h.state === 'pending').length, 0) ?? 0;
  const onKeyDownCapture = (e: React.KeyboardEvent): void => {
    if (handleReviewKey(e, useReviewStore.getState())) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  return (
    <section
      className="review-panel"
      data-testid="review-panel"
      aria-label="Review"
      onKeyDownCapture={onKeyDownCapture}
    >
      <TimelineStrip />
      <div className="review-toolbar" role="toolbar" aria-label="Review actions">
        <span className="review-point" data-testid="review-point">
          {entry ? `${entry.index + 1}/${s.timeline.length} · ${entry.label}` : 'No point selected'}
        </span>
        <label>
          against{' '}
          <select
            value={s.against}
            onChange={(e) => s.setAgainst(e.target.value as Against)}
            data-testid="review-against"
          >
            <option value="previous">previous point</option>
            <option value="turn">whole turn</option>
            <option value="start">session start</option>
            <option value="now">now</option>
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            data-testid="review-side-by-side"
            checked={s.sideBySide}
            onChange={(e) => s.setSideBySide(e.target.checked)}
          />{' '}
          side by side
        </label>
        <button type="button" onClick={() => s.nextHunk(-1)} title="Previous change (Alt+↑)">
          ↑ Prev
        </button>
        <button type="button" onClick={() => s.nextHunk(1)} title="Next change (Alt+↓)">
          ↓ Next
        </button>
        <span className="review-pending" data-testid="review-pending">
          {pending} pending
        </span>
        <button
          type="button"
          disabled={pending === 0 || s.deciding}
          onClick={() => void s.decideAll('accept')}
          title="Keep all (Ctrl/Cmd+Enter)"
          data-testid="keep-all"
        >
          Keep all
        </button>
        <button
          type="button"
          disabled={pending === 0 || s.deciding}
          onClick={() => void s.decideAll('reject')}
          title="Reject all (Ctrl/Cmd+Backspace)"
          data-testid="reject-all"
        >
          Reject all
        </button>
        {s.loading ? <span className="review-loading">loading…</span> : null}
      </div>
      <RevertBanner session={session} />
      <ReviewNoticeBar />
      <RevertDialog />
      <div className="review-body">
        <div className="review-side">
          <FileList files={s.diff?.files ?? []} selected={s.file} onSelect={s.selectFile} />
          {file ? (
            <div className="review-file-actions">
              <button
                type="button"
                disabled={s.deciding}
                onClick={() => void s.decideAll('accept', file.path)}
                data-testid="keep-file"
              >
                Keep file
              </button>
              <button
                type="button"
                disabled={s.deciding}
                onClick={() => void s.decideAll('reject', file.path)}
                data-testid="reject-file"
              >
                Reject file
              </button>
            </div>
          ) : null}
        </div>
        <DiffView
          file={file}
          focusedId={focused?.id ?? null}
          sideBySide={s.sideBySide}
          onAction={(h, a) => void (a === 'undo' ? s.undo(h.decisionId) : s.decideHunk(a, h.id))}
        />
      </div>
    </section>
  );
}
