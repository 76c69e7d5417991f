/** An inline permission question: what the tool wants, the preview diff, and once / always / reject with a reason. */
import { useState } from 'react';
import type React from 'react';
import type { PermissionAsk } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { DiffPreview } from './DiffPreview';

const VERB: Record<PermissionAsk['permission'], string> = {
  read: 'read',
  edit: 'change',
  bash: 'run',
  external_directory: 'reach outside the project',
};

export function PermissionPrompt({ ask }: { ask: PermissionAsk }): React.JSX.Element {
  const answer = useStore((s) => s.answer);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const preview = ask.preview ?? [];
  return (
    <div className="permission" role="alertdialog" aria-label="Permission needed" data-testid="permission">
      <div className="permission-head">
        <strong>{ask.tool}</strong> wants to {VERB[ask.permission]}: <code>{ask.patterns.join(', ') || ask.title}</code>
      </div>
      {preview.map((f) => (
        <div key={f.file} className="preview-file">
          <div className="preview-name">
            {f.file} <span className="add">+{f.additions}</span> <span className="del">−{f.deletions}</span>
          </div>
          <DiffPreview patch={f.patch} path={f.file} />
        </div>
      ))}
      {rejecting ? (
        <form
          className="reject-form"
          onSubmit={(e) => {
            e.preventDefault();
            void answer(ask.requestId, 'reject', reason.trim() || undefined);
          }}
        >
          <input
            autoFocus
            aria-label="Reason for the model"
            data-testid="reject-reason"
            placeholder="Tell the model why (optional)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="submit" className="danger" data-testid="reject-send">
            Reject
          </button>
          <button type="button" onClick={() => setRejecting(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="permission-actions">
          <button className="primary" data-testid="allow-once" onClick={() => void answer(ask.requestId, 'once')}>
            Allow once
          </button>
          <button data-testid="allow-always" onClick={() => void answer(ask.requestId, 'always')}>
            Always allow in this session
          </button>
          <button className="danger" data-testid="reject" onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      )}
    </div>
  );
}
