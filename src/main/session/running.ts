/**
 * Turns running now, recorded in the session database (`running_turns`, db.ts) so every process on the data
 * folder can tell: a window reloaded mid-turn asks which sessions run (the list's running dots), and a host
 * follows turns another process runs (host/event-follow.ts). A row is written when a turn is admitted and removed
 * when it ends (agent/turns.ts), with the pid of the process running it; a row whose process is gone (a crash,
 * SIGKILL) counts as not running and is removed by the next process that opens the database.
 *
 * A pid the system reused for an unrelated process after a crash would make a dead turn look alive until that
 * process ends or the data folder is opened again; rows of this very pid are always stale at open.
 */
import type { Db } from './db';
import { alive } from './owner';
import type { RunningTurn } from '../../shared/running-schemas';

/** Records that this process runs a turn of `sessionId` since `since` (ms since the epoch). */
export function markRunning(db: Db, sessionId: string, since = Date.now()): void {
  db.prepare('INSERT OR REPLACE INTO running_turns (session_id, pid, since) VALUES (?, ?, ?)').run(
    sessionId,
    process.pid,
    since,
  );
}

/** Removes this process's record of a turn of `sessionId` (a row another process wrote is left alone). */
export function markEnded(db: Db, sessionId: string): void {
  db.prepare('DELETE FROM running_turns WHERE session_id = ? AND pid = ?').run(sessionId, process.pid);
}

/**
 * The turns running now: rows whose process is alive, `elsewhere` when that process is not this one. Works on a
 * read-only connection too (nothing is written).
 */
export function runningTurns(db: Db): RunningTurn[] {
  const rows = db.prepare('SELECT session_id, pid, since FROM running_turns ORDER BY since').all() as {
    session_id: string;
    pid: number;
    since: number;
  }[];
  return rows
    .filter((r) => r.pid === process.pid || alive(r.pid))
    .map((r) => ({ sessionId: r.session_id, since: r.since, elsewhere: r.pid !== process.pid }));
}

/** True when another live process runs a turn of `sessionId` now (this process's own turns are not counted). */
export function runsElsewhere(db: Db, sessionId: string): boolean {
  return runningTurns(db).some((t) => t.elsewhere && t.sessionId === sessionId);
}

/** At open: removes rows of processes that are gone, and of this pid (no turn of this process runs yet). */
export function clearStaleTurns(db: Db): number {
  const rows = db.prepare('SELECT session_id, pid FROM running_turns').all() as { session_id: string; pid: number }[];
  const del = db.prepare('DELETE FROM running_turns WHERE session_id = ? AND pid = ?');
  let n = 0;
  for (const r of rows) if (r.pid === process.pid || !alive(r.pid)) n += del.run(r.session_id, r.pid).changes;
  return n;
}
