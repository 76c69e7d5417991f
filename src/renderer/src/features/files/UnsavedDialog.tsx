/**
 * The question before leaving a project with unsaved editor edits (stores/leave-slice.ts): Save, Discard or
 * Cancel. Esc cancels; the focus starts on Save (the choice that loses nothing).
 */
import type React from 'react';
import { useStore } from '../../stores';
import './files.css';

export function UnsavedDialog(): React.JSX.Element | null {
  const leaving = useStore((s) => s.leaving);
  const path = useStore((s) => s.file?.path);
  const conflict = useStore((s) => s.conflict !== null);
  const resolve = useStore((s) => s.resolveLeave);
  if (!leaving) return null;
  const where = leaving.kind === 'sample' ? 'the sample project' : leaving.root;
  return (
    <div className="unsaved-backdrop">
      <div
        className="unsaved-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="unsaved-title"
        data-testid="unsaved-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape') void resolve('cancel');
        }}
      >
        <h3 id="unsaved-title">Unsaved changes in {path}</h3>
        <p>
          You are opening {where}. {path} has edits that are not saved
          {conflict ? ', and the file changed on disk since (saving opens the merge view)' : ''}.
        </p>
        <div className="row-buttons">
          <button autoFocus className="primary" data-testid="unsaved-save" onClick={() => void resolve('save')}>
            Save and open
          </button>
          <button className="danger" data-testid="unsaved-discard" onClick={() => void resolve('discard')}>
            Discard edits
          </button>
          <button data-testid="unsaved-cancel" onClick={() => void resolve('cancel')}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
