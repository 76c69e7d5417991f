/** The right-hand pane: the review of the session's steps, or the project's files and the editor. */
import type React from 'react';
import { useStore } from '../../stores';
import { ReviewPanel } from '../review/ReviewPanel';
import { FileView } from './FileView';
import './files.css';

export function RightPane(): React.JSX.Element {
  const pane = useStore((s) => s.rightPane);
  const setPane = useStore((s) => s.setRightPane);
  const dirty = useStore((s) => s.edited !== null);
  return (
    <div className="right-pane">
      <div className="right-switch" role="tablist" aria-label="Right pane">
        <button
          role="tab"
          aria-selected={pane === 'review'}
          className={pane === 'review' ? 'active' : ''}
          onClick={() => setPane('review')}
          data-testid="show-review"
        >
          Review
        </button>
        <button
          role="tab"
          aria-selected={pane === 'files'}
          className={pane === 'files' ? 'active' : ''}
          onClick={() => setPane('files')}
          data-testid="show-files"
        >
          Files{dirty ? ' ●' : ''}
        </button>
      </div>
      {pane === 'files' ? <FileView /> : <ReviewPanel />}
    </div>
  );
}
