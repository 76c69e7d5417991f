/**
 * The open project's sessions: new, select, rename, delete (asks twice), export to a file, import from one, and
 * search by title and text (SessionSearch.tsx); a running dot on every session running a turn.
 */
import { useRef, useState } from 'react';
import type React from 'react';
import type { Session } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { saveFile } from './save-file';
import { SearchBox, SearchResults } from './SessionSearch';
import './sessions.css';

function SessionItem({ session, active }: { session: Session; active: boolean }): React.JSX.Element {
  const select = useStore((s) => s.selectSession);
  const rename = useStore((s) => s.renameSession);
  const remove = useStore((s) => s.deleteSession);
  const exportSession = useStore((s) => s.exportSession);
  const running = useStore((s) => s.running[session.id] !== undefined);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [confirm, setConfirm] = useState(false);
  if (editing) {
    return (
      <li className="session editing">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setEditing(false);
            if (title.trim()) void rename(session.id, title.trim());
          }}
        >
          <input
            autoFocus
            aria-label="Session title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            onBlur={() => setEditing(false)}
          />
        </form>
      </li>
    );
  }
  return (
    <li className={`session${active ? ' active' : ''}`} data-testid="session-item">
      <button className="session-title" onClick={() => void select(session.id)} onDoubleClick={() => setEditing(true)}>
        {running && <span className="running-dot" data-testid="session-running" title="Running a turn" />}
        {session.title}
      </button>
      <span className="session-actions">
        <button title="Rename" aria-label="Rename" onClick={() => setEditing(true)}>
          ✎
        </button>
        <button
          title="Export"
          aria-label="Export"
          onClick={() =>
            void exportSession(session.id).then((file) => {
              if (file) saveFile(file.fileName, file.json);
            })
          }
        >
          ⇩
        </button>
        <button
          title={confirm ? 'Click again to delete' : 'Delete'}
          aria-label="Delete"
          className={confirm ? 'danger' : ''}
          onClick={() => (confirm ? void remove(session.id) : setConfirm(true))}
          onMouseLeave={() => setConfirm(false)}
        >
          {confirm ? 'Delete?' : '×'}
        </button>
      </span>
    </li>
  );
}

export function SessionList(): React.JSX.Element {
  const sessions = useStore((s) => s.sessions);
  const sessionId = useStore((s) => s.sessionId);
  const newSession = useStore((s) => s.newSession);
  const importSession = useStore((s) => s.importSession);
  const importing = useStore((s) => s.importing);
  const hits = useStore((s) => s.searchHits);
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <nav className="sessions" aria-label="Sessions">
      <div className="sessions-head">
        <button className="primary" data-testid="new-session" onClick={() => void newSession()}>
          New session
        </button>
        <button data-testid="import-session" disabled={!!importing} onClick={() => fileInput.current?.click()}>
          {importing ? `Importing… ${Math.floor((100 * importing.sent) / Math.max(1, importing.total))}%` : 'Import…'}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void importSession(file);
            e.target.value = '';
          }}
        />
        <SearchBox />
      </div>
      {hits ? (
        <SearchResults hits={hits} />
      ) : (
        <ul>
          {sessions.map((s) => (
            <SessionItem key={s.id} session={s} active={s.id === sessionId} />
          ))}
        </ul>
      )}
    </nav>
  );
}
