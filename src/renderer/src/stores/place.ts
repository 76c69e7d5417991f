/**
 * Where the user was, so a reload or a reconnect returns there: the open project (its root), the open session,
 * and per session the first message row in view (or "at the bottom", which keeps following a stream). Kept in
 * the tab's sessionStorage (each window its own place) and mirrored to localStorage so a new window starts from
 * the last place. Unreadable or missing storage means "no place" — never an error.
 */

export interface RowPlace {
  index: number;
  atBottom: boolean;
}

export interface Place {
  root: string | null;
  sessionId: string | null;
  rows: Record<string, RowPlace>;
}

const KEY = 'landfall.place';
const MAX_ROWS = 50;

function stores(): Storage[] {
  const out: Storage[] = [];
  try {
    if (typeof sessionStorage !== 'undefined') out.push(sessionStorage);
    if (typeof localStorage !== 'undefined') out.push(localStorage);
  } catch {
    // storage disabled (privacy mode): no place is kept
  }
  return out;
}

/** Parses a stored place; null when absent or malformed. */
export function parsePlace(raw: string | null): Place | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Place>;
    const root = typeof v.root === 'string' ? v.root : null;
    const sessionId = typeof v.sessionId === 'string' ? v.sessionId : null;
    const rows: Record<string, RowPlace> = {};
    for (const [id, r] of Object.entries(v.rows ?? {}))
      if (r && typeof r.index === 'number' && typeof r.atBottom === 'boolean') rows[id] = r;
    return { root, sessionId, rows };
  } catch {
    return null;
  }
}

/** The place of this window (its tab's storage first, then the last window's). */
export function readPlace(): Place {
  for (const s of stores()) {
    const p = parsePlace(s.getItem(KEY));
    if (p) return p;
  }
  return { root: null, sessionId: null, rows: {} };
}

/** Merges `change` into the stored place (rows merged by session; at most MAX_ROWS sessions remembered). */
export function writePlace(change: Partial<Place>): void {
  const now = readPlace();
  const rows = { ...now.rows, ...change.rows };
  const ids = Object.keys(rows);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_ROWS))) delete rows[id];
  const next: Place = { ...now, ...change, rows };
  for (const s of stores()) {
    try {
      s.setItem(KEY, JSON.stringify(next));
    } catch {
      // full or disabled storage: the place is simply not kept
    }
  }
}
