/**
 * The review panel (DESIGN §8): timeline strip on top; at the selected point, the changed files and the Monaco diff
 * against the previous point, the whole turn, the session start, or now; Keep / Reject per hunk, per file and for
 * the whole point; next / previous change; the outcome of the last action (conflicts name their lines). It renders
 * the store's review slice (stores/review-slice.ts), which follows the open session by itself. Focus stays where
 * the user puts it (fixtures/bugs/README.md B41).
 */
import type React from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore, type Store } from '../../stores';
import type { Against } from '../../stores/review-types';
import { hunkAt } from '../../stores/review-nav';
import { pendingCount } from '../../../../shared/review-change';
import { TimelineStrip } from './TimelineStrip';
import { FileList } from './FileList';
import { DiffView } from './DiffView';
import { REVIEW_SCOPE } from '../layout/keyboard';
import { withKeys } from '../../stores/key-labels';
import { ReviewNoticeBar, RevertBanner, RevertDialog } from './RevertControls';
import './review.css';

/** What the panel draws, picked field by field: `useShallow` keeps the panel still unless one of them changed. */
function pick(x: Store) {
  const v = x.review;
  return {
    timeline: v.timeline,
    selected: v.selected,
    against: v.against,
    diff: v.diff,
    file: v.file,
    pos: v.pos,
    sideBySide: v.sideBySide,
    deciding: v.deciding,
    loading: v.loading,
    setAgainst: x.setAgainst,
    setSideBySide: x.setSideBySide,
    nextHunk: x.nextHunk,
    decideAll: x.decideAll,
    decideHunk: x.decideHunk,
    selectFile: x.selectFile,
    undoDecision: x.undoDecision,
  };
}

export function ReviewPanel(): React.JSX.Element {
  const s = useStore(useShallow(pick));
  const entry = s.timeline[s.selected];
  const file = s.diff?.files[s.file];
  const focused = hunkAt(s.diff, s.pos);
  const pending = pendingCount(s.diff);
  return (
    <section className="review-panel" data-testid="review-panel" aria-label="Review" {...{ [REVIEW_SCOPE]: 'review' }}>
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
        <button type="button" onClick={() => s.nextHunk(-1)} title={withKeys('Previous change', 'review.previous')}>
          ↑ Prev
        </button>
        <button type="button" onClick={() => s.nextHunk(1)} title={withKeys('Next change', 'review.next')}>
          ↓ Next
        </button>
        <span className="review-pending" data-testid="review-pending">
          {pending} pending
        </span>
        <button
          type="button"
          disabled={pending === 0 || s.deciding}
          onClick={() => void s.decideAll('accept')}
          title={withKeys('Keep every pending hunk', 'review.keepAll')}
          data-testid="keep-all"
        >
          Keep all
        </button>
        <button
          type="button"
          disabled={pending === 0 || s.deciding}
          onClick={() => void s.decideAll('reject')}
          title={withKeys('Reject every pending hunk', 'review.rejectAll')}
          data-testid="reject-all"
        >
          Reject all
        </button>
        {s.loading ? <span className="review-loading">loading…</span> : null}
      </div>
      <RevertBanner />
      <ReviewNoticeBar />
      <RevertDialog />
      <div className="review-body">
        <div className="review-side">
          <FileList files={s.diff?.files ?? []} selected={s.file} onSelect={s.selectFile} />
          {file ? (
            <div className="review-file-actions">
              <button
                type="button"
                disabled={s.deciding || pendingCount(s.diff, file.path) === 0}
                onClick={() => void s.decideAll('accept', file.path)}
                data-testid="keep-file"
              >
                Keep file
              </button>
              <button
                type="button"
                disabled={s.deciding || pendingCount(s.diff, file.path) === 0}
                onClick={() => void s.decideAll('reject', file.path)}
                data-testid="reject-file"
              >
                Reject file
              </button>
              {file.status !== 'deleted' && (
                <button
                  type="button"
                  onClick={() => void useStore.getState().openFile(file.path, (focused ?? file.hunks[0])?.newStart)}
                  data-testid="open-in-editor"
                  title="Open this file in the editor at the change"
                >
                  Open in editor
                </button>
              )}
            </div>
          ) : null}
        </div>
        <DiffView
          file={file}
          focusedId={focused?.id ?? null}
          sideBySide={s.sideBySide}
          onAction={(h, a) => void (a === 'undo' ? s.undoDecision(h.decisionId) : s.decideHunk(a, h.id))}
        />
      </div>
    </section>
  );
}
