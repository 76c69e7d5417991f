/**
 * Session search in the sessions column: the search box, and while it holds a query the sessions found
 * (stores/search-slice.ts) in place of the plain list — each with its title (opens the session) and the snippets
 * of the messages that matched, the matched text marked (each opens the session at that message); "No session
 * matches" when none does. Esc clears the box.
 */
import type React from 'react';
import type { Snippet, SessionSearchHit } from '../../../../shared/search-schemas';
import { useStore } from '../../stores';

/** A snippet with its matched text in <mark>. */
function Marked({ snippet }: { snippet: Snippet }): React.JSX.Element {
  return (
    <>
      {snippet.before}
      <mark data-testid="search-mark">{snippet.match}</mark>
      {snippet.after}
    </>
  );
}

export function SearchBox(): React.JSX.Element {
  const query = useStore((s) => s.searchQuery);
  const setSearch = useStore((s) => s.setSearch);
  const clear = useStore((s) => s.clearSearch);
  return (
    <input
      className="session-search"
      type="search"
      placeholder="Search sessions"
      aria-label="Search sessions by title and text"
      data-testid="session-search"
      value={query}
      onChange={(e) => void setSearch(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') clear();
      }}
    />
  );
}

function Hit({ hit, active }: { hit: SessionSearchHit; active: boolean }): React.JSX.Element {
  const open = useStore((s) => s.openSearchHit);
  const running = useStore((s) => s.running[hit.sessionId] !== undefined);
  return (
    <li className={`search-hit${active ? ' active' : ''}`} data-testid="search-hit">
      <button className="search-hit-open" onClick={() => void open(hit.sessionId)}>
        <span className="search-hit-title">
          {running && <span className="running-dot" data-testid="session-running" title="Running a turn" />}
          {hit.titleMatch ? <Marked snippet={hit.titleMatch} /> : hit.title}
        </span>
      </button>
      {hit.matches.map((m) => (
        <button
          key={m.partId}
          className="search-hit-snippet"
          data-role={m.role}
          data-testid="search-snippet"
          onClick={() => void open(hit.sessionId, m.messageId)}
        >
          <span className="search-hit-role">{m.role === 'user' ? 'You' : 'Agent'}</span>
          <Marked snippet={m.snippet} />
        </button>
      ))}
      {hit.more > 0 && <span className="search-hit-more">+{hit.more} more</span>}
    </li>
  );
}

/** The found sessions for the box's query, or the empty state. */
export function SearchResults({ hits }: { hits: SessionSearchHit[] }): React.JSX.Element {
  const query = useStore((s) => s.searchQuery);
  const sessionId = useStore((s) => s.sessionId);
  if (hits.length === 0)
    return (
      <p className="search-empty" data-testid="search-empty">
        No session matches “{query.trim()}”.
      </p>
    );
  return (
    <ul className="search-hits" aria-label="Sessions found">
      {hits.map((h) => (
        <Hit key={h.sessionId} hit={h} active={h.sessionId === sessionId} />
      ))}
    </ul>
  );
}
