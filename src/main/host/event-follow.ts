/**
 * Following the session store's event log, so two windows (two hosts, or the command line and the app) on one
 * data folder see each other's sessions and steps live. Every stored change writes an event row with a gap-free
 * sequence number in the same transaction (src/main/session/store.ts); this process's own events reach its
 * listeners directly, so the follower reads the rows after its cursor every `intervalMs` and hands on only those
 * another process wrote (their sequence numbers were never seen among this process's own events).
 *
 * The log is read through its own read-only connection (WAL: readers never block the writer). Stream deltas are
 * not stored, so another process's text appears as its part is saved (every 250 ms); its permission questions are
 * not handed on (only the process that asked can take the answer). Turn states are not in the log either: each
 * read also compares the turns other processes run (`running_turns`, session/running.ts) with the last read and
 * hands on `session.state` busy for a turn that started (before that read's events) and idle for one that ended
 * or whose process is gone (after them).
 */
import Database from 'better-sqlite3';
import type { CoreEvent, CoreListener } from '../../shared/events';
import { coreEventSchema } from '../../shared/events';
import { runningTurns } from '../session/running';

/** Event types not handed on from another process (its permission questions can only be answered there). */
const FOREIGN_SKIP = new Set<CoreEvent['type']>(['permission.asked', 'permission.answered']);

export interface EventFollower {
  /** Listen for events other processes wrote; returns the function that stops listening. */
  on(listener: CoreListener): () => void;
  /** Reads the log once now (the timer does this every `intervalMs`); returns how many foreign events it passed on. */
  poll(): number;
  close(): void;
}

/**
 * Follows the log in `dbFile` from its current end. `subscribeOwn` registers a listener for this process's own
 * events (AgentService.on), whose sequence numbers are skipped. A row that does not parse as an event is skipped.
 */
export function followEventLog(
  dbFile: string,
  subscribeOwn: (listener: CoreListener) => () => void,
  intervalMs = 300,
): EventFollower {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const after = db.prepare('SELECT seq, data FROM events WHERE seq > ? ORDER BY seq LIMIT 500');
  let cursor = Number((db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM events').get() as { n: number }).n);
  const own = new Set<number>();
  const listeners = new Set<CoreListener>();
  const tell = (e: CoreEvent): void => {
    for (const l of listeners) l(e);
  };
  const foreignTurns = (): Set<string> => new Set(runningTurns(db).flatMap((t) => (t.elsewhere ? [t.sessionId] : [])));
  let foreign = foreignTurns();
  const offOwn = subscribeOwn((e) => {
    if ('seq' in e && e.seq > cursor) own.add(e.seq);
  });
  const poll = (): number => {
    let passed = 0;
    const now = foreignTurns();
    for (const id of now) if (!foreign.has(id)) tell({ type: 'session.state', sessionId: id, state: 'busy' });
    const ended = [...foreign].filter((id) => !now.has(id));
    foreign = now;
    for (;;) {
      const rows = after.all(cursor) as { seq: number; data: string }[];
      for (const row of rows) {
        cursor = row.seq;
        if (own.delete(row.seq)) continue;
        const parsed = coreEventSchema.safeParse({ ...(JSON.parse(row.data) as object), seq: row.seq });
        // A permission question belongs to the process that asked it: only that one can take the answer.
        if (!parsed.success || FOREIGN_SKIP.has(parsed.data.type)) continue;
        passed++;
        tell(parsed.data as CoreEvent);
      }
      if (rows.length < 500) break;
    }
    for (const id of ended) tell({ type: 'session.state', sessionId: id, state: 'idle' });
    return passed;
  };
  const timer = setInterval(() => {
    try {
      poll();
    } catch {
      // a locked or closing database: the next tick reads on from the same cursor
    }
  }, intervalMs);
  timer.unref();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    poll,
    close() {
      clearInterval(timer);
      offOwn();
      listeners.clear();
      db.close();
    },
  };
}
