/**
 * Messages sent while a turn runs: stored at once by main, shown here as queued until they join the history.
 * Each can be edited, removed, or marked "send now" (joins the running turn at its next step). When the session
 * is idle with messages still queued (after a restart, a stop, a failed turn), "Run queued" runs them.
 */
import { useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import type { QueuedItem } from '../../stores/types';
import './talk.css';

function QueuedRow({ item, busy }: { item: QueuedItem; busy: boolean }): React.JSX.Element {
  const edit = useStore((s) => s.editQueued);
  const remove = useStore((s) => s.removeQueued);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <li className="queued-item" data-testid="queued-item">
      <span className="queued-badge">{item.steer ? 'next step' : 'queued'}</span>
      {editing === null ? (
        <span className="queued-text">{item.text}</span>
      ) : (
        <input
          className="queued-edit"
          aria-label="Edit queued message"
          value={editing}
          autoFocus
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && editing.trim()) {
              void edit(item.id, { text: editing.trim() });
              setEditing(null);
            } else if (e.key === 'Escape') setEditing(null);
          }}
        />
      )}
      {busy && !item.steer ? (
        <button onClick={() => void edit(item.id, { steer: true })} title="Join the running turn at its next step">
          Send now
        </button>
      ) : null}
      <button onClick={() => setEditing(item.text)}>Edit</button>
      <button onClick={() => void remove(item.id)}>Remove</button>
    </li>
  );
}

export function QueuedList(): React.JSX.Element | null {
  const queued = useStore((s) => s.queued);
  const busy = useStore((s) => s.busy);
  const resume = useStore((s) => s.resumeQueue);
  if (queued.length === 0) return null;
  return (
    <div className="queued" data-testid="queued">
      <div className="queued-head">
        <span>{`Queued (${queued.length}) — sent when the agent finishes`}</span>
        {busy ? null : (
          <button className="primary" data-testid="queue-resume" onClick={() => void resume()}>
            Run queued
          </button>
        )}
      </div>
      <ul>
        {queued.map((q) => (
          <QueuedRow key={q.id} item={q} busy={busy} />
        ))}
      </ul>
    </div>
  );
}
