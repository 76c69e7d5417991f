/**
 * An inline permission question: what the tool wants (the exact command or paths), why the rules asked, the
 * preview diff, and once / always / reject with a reason. "Always" says exactly what it will allow; for a single
 * bash command the user may edit it into a pattern first. A write into a repository's own .git folder gets a
 * warning and no "always".
 */
import { useState } from 'react';
import type React from 'react';
import type { PermissionAsk } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { DiffPreview } from './DiffPreview';
import { patternToSend, willAllow } from './always-text';

const VERB: Record<PermissionAsk['permission'], string> = {
  read: 'read',
  edit: 'change',
  bash: 'run',
  external_directory: 'reach outside the project',
  git_dir: "write into the repository's own git folder",
  webfetch: 'fetch a web page from',
  mcp: 'call the MCP tool',
};

function AlwaysControls({ ask }: { ask: PermissionAsk }): React.JSX.Element | null {
  const answer = useStore((s) => s.answer);
  const offer = ask.always;
  const [editing, setEditing] = useState(false);
  const [field, setField] = useState(offer?.exact[0] ?? '');
  if (!offer) return null;
  const send = (): void =>
    void answer(ask.requestId, 'always', undefined, editing ? patternToSend(offer, field) : undefined);
  return (
    <div className="always" data-testid="always">
      {editing ? (
        <input
          aria-label="Pattern to allow always"
          data-testid="always-pattern"
          value={field}
          onChange={(e) => setField(e.target.value)}
        />
      ) : null}
      <div className="always-note" data-testid="always-note">
        {editing ? willAllow(offer, field) : willAllow(offer, '')}
        {offer.editable ? null : <span className="muted"> — {offer.note}</span>}
      </div>
      <div className="permission-actions">
        <button data-testid="allow-always" onClick={send}>
          {editing ? 'Always allow this pattern' : 'Always allow exactly this'}
        </button>
        {offer.editable && !editing ? (
          <button data-testid="always-edit" onClick={() => setEditing(true)}>
            Edit into a pattern…
          </button>
        ) : null}
      </div>
    </div>
  );
}

export function PermissionPrompt({ ask }: { ask: PermissionAsk }): React.JSX.Element {
  const answer = useStore((s) => s.answer);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const preview = ask.preview ?? [];
  const reasons = ask.reasons ?? [];
  return (
    <div className="permission" role="alertdialog" aria-label="Permission needed" data-testid="permission">
      <div className="permission-head">
        <strong>{ask.tool}</strong> wants to {VERB[ask.permission]}:{' '}
        <code data-testid="permission-what">{ask.patterns.join(', ') || ask.title}</code>
        {ask.permission === 'bash' && ask.title !== ask.patterns[0] ? (
          <div className="muted">The model says: {ask.title}</div>
        ) : null}
      </div>
      {ask.permission === 'git_dir' ? (
        <div className="permission-warning" data-testid="git-dir-warning">
          This is the repository&apos;s own git folder. A change here (config, hooks) can run code on your next git
          command, and Landfall&apos;s undo cannot restore it. It is asked every time.
        </div>
      ) : null}
      {reasons.length > 0 ? (
        <ul className="permission-reasons" data-testid="permission-reasons">
          {reasons.map((r) => (
            <li key={r}>Asked because {r}</li>
          ))}
        </ul>
      ) : null}
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
        <>
          <div className="permission-actions">
            <button className="primary" data-testid="allow-once" onClick={() => void answer(ask.requestId, 'once')}>
              Allow once
            </button>
            <button className="danger" data-testid="reject" onClick={() => setRejecting(true)}>
              Reject…
            </button>
          </div>
          <AlwaysControls ask={ask} />
        </>
      )}
    </div>
  );
}
