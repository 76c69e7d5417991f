/**
 * Review decisions in the session's append-only event log (DESIGN §5: every decision is an event). Rows go into the
 * session database's `events` table (seq, session_id, type, data, time) with types `review.decided` and
 * `review.undone`; the decision state of every hunk is a fold over them, so it survives reloads and restarts.
 */
import type { Db } from '../db';

/** The disk effect of a decision on one file: sha1 of its bytes before / after (null = absent). */
export interface FileEffect {
  path: string;
  before: string | null;
  after: string | null;
}

/** A keep or reject decision on hunks. `treeAfter` is its own point on the timeline. */
export interface DecidedEvent {
  type: 'review.decided';
  sessionId: string;
  decisionId: string;
  action: 'accept' | 'reject';
  /** The `from..to` scope the hunk ids belong to, and the trees. */
  scope: string;
  from: string;
  to: string;
  messageId?: string;
  hunks: { id: string; path: string }[];
  files: FileEffect[];
  treeBefore: string;
  treeAfter: string;
  time: number;
}

/** A decision undone (its hunks are pending again; a reject's files are put back). */
export interface UndoneEvent {
  type: 'review.undone';
  sessionId: string;
  decisionId: string;
  files: FileEffect[];
  treeBefore: string;
  treeAfter: string;
  time: number;
}

export type ReviewEvent = (DecidedEvent | UndoneEvent) & { seq: number };

const TYPES = ['review.decided', 'review.undone'] as const;

/** Append-only access to review events in a session database. */
export class ReviewLog {
  constructor(private readonly db: Db) {}

  /** Append one event in its own transaction; returns its sequence number (the log's, gap-free). */
  append(event: DecidedEvent | UndoneEvent): number {
    const info = this.db
      .prepare('INSERT INTO events (session_id, type, data, time) VALUES (?, ?, ?, ?)')
      .run(event.sessionId, event.type, JSON.stringify(event), event.time);
    return Number(info.lastInsertRowid);
  }

  /** Every review event of a session, in log order. */
  list(sessionId: string): ReviewEvent[] {
    const rows = this.db
      .prepare(
        `SELECT seq, data FROM events WHERE session_id = ? AND type IN (${TYPES.map(() => '?').join(',')}) ORDER BY seq`,
      )
      .all(sessionId, ...TYPES) as { seq: number; data: string }[];
    return rows.map((r) => ({ ...(JSON.parse(r.data) as DecidedEvent | UndoneEvent), seq: r.seq }));
  }

  /**
   * The sequence number at which the session's revert in force was last applied to disk: the oldest of the newest
   * run of `session.updated` events (the session store logs one per update) carrying that same boundary — a title
   * change while reverted keeps the boundary and does not count. Undefined when the newest row carries no revert (or
   * there is none). Review events before it happened before the revert wrote the work tree (review/reverted.ts).
   */
  revertSeq(sessionId: string): number | undefined {
    const rows = this.db
      .prepare("SELECT seq, data FROM events WHERE session_id = ? AND type = 'session.updated' ORDER BY seq DESC")
      .iterate(sessionId) as Iterable<{ seq: number; data: string }>;
    let key: string | undefined;
    let seq: number | undefined;
    for (const r of rows) {
      const revert = (JSON.parse(r.data) as { session?: { revert?: unknown } }).session?.revert;
      const k = revert ? JSON.stringify(revert) : '';
      if (key === undefined) key = k;
      if (k !== key || k === '') break;
      seq = r.seq;
    }
    return seq;
  }
}

/** Decisions still in force (not undone), by decision id, in log order. */
export function liveDecisions(events: readonly ReviewEvent[]): Map<string, DecidedEvent & { seq: number }> {
  const live = new Map<string, DecidedEvent & { seq: number }>();
  for (const e of events) {
    if (e.type === 'review.decided') live.set(e.decisionId, e);
    else live.delete(e.decisionId);
  }
  return live;
}

/** The state of each decided hunk id: the latest live decision naming it wins. */
export function hunkStates(
  events: readonly ReviewEvent[],
): Map<string, { state: 'accepted' | 'rejected'; decisionId: string }> {
  const out = new Map<string, { state: 'accepted' | 'rejected'; decisionId: string }>();
  for (const d of liveDecisions(events).values()) {
    for (const h of d.hunks)
      out.set(h.id, { state: d.action === 'accept' ? 'accepted' : 'rejected', decisionId: d.decisionId });
  }
  return out;
}
