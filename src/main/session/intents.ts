/**
 * Intents: how a change to the work tree and the session record that describes it stay one (issue 12 §3: a kill
 * between a revert's last rename and the write of its boundary left the files reverted and the session not).
 *
 * A history move (revert, unrevert, undo, redo) and a review decision (reject, undo of a decision) first store an
 * intent row here — what the record will become (`data`), and the writer's pid and start time. The work-tree
 * transaction then runs under the intent's id (fs/tx-types.ts `TxOptions.intent`): its journal folder is named by
 * it and, once committed, kept. The record itself (the session's boundary, the review event) is written in ONE
 * SQLite transaction with the deletion of the row (`complete`), and only then is the journal folder released.
 * The commit point of the whole move is therefore the journal's `committed` mark:
 *   - killed before it: the next start rolls the files back (fs/recovery.ts) and `journalOutcome` is 'none' —
 *     the row is dropped, the record never changed: disk and session both as before;
 *   - killed after it and before the record: 'committed' — the next start writes the record from the row
 *     (agent/history-recovery.ts), then releases the journal: both as after;
 *   - killed after the record: the row is gone; the kept folder is released.
 * Rows of a live writer (another process, or this one mid-move) are never touched.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { journalOutcome, OWN_START, ownerAlive, readJournal, releaseJournal } from '../fs/journal';
import type { Db } from './db';

/** What a move's record becomes, by kind (the session layer's own shapes; JSON in the row). */
export type IntentKind = 'revert' | 'review.decided' | 'review.undone';

/** One stored intent. `data` is what the record becomes (kind-specific JSON). */
export interface Intent {
  id: string;
  sessionId: string;
  kind: IntentKind;
  data: unknown;
  pid: number;
  started: string;
  created: number;
}

interface Row {
  id: string;
  session_id: string;
  kind: string;
  data: string;
  pid: number;
  started: string;
  created: number;
}

/** Names of the journal folders that belong to intents (`intent-…`). */
function keptJournals(journalDir: string): string[] {
  try {
    return readdirSync(journalDir).filter((n) => n.startsWith('intent-'));
  } catch {
    return [];
  }
}

/** The intents of one session database, with the journal folder their transactions use. */
export class Intents {
  constructor(
    private readonly db: Db,
    /** `<dataDir>/journal`: where the snapshot store and the review journal their writes. */
    readonly journalDir: string,
  ) {}

  /** Store a new intent (its own SQLite transaction); returns its id, to pass as the transaction's `intent`. */
  begin(sessionId: string, kind: IntentKind, data: unknown): string {
    const id = `intent-${Date.now().toString(36)}-${process.pid}-${randomBytes(6).toString('hex')}`;
    this.db
      .prepare(
        'INSERT INTO history_intents (id, session_id, kind, data, pid, started, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, sessionId, kind, JSON.stringify(data), process.pid, OWN_START, Date.now());
    return id;
  }

  /**
   * Delete the row of `id`. Call it inside the SQLite transaction that writes the record (so the two are one),
   * or alone when the move wrote nothing (its transaction failed or never ran).
   */
  remove(id: string): void {
    this.db.prepare('DELETE FROM history_intents WHERE id = ?').run(id);
  }

  /**
   * Write the record that follows intent `id` and delete its row in one SQLite transaction (`tx`: the caller's
   * own, e.g. SessionStore.tx so its events are emitted; by default one of this database), then release the
   * journal. Returns what `write` returned.
   */
  complete<T>(id: string, write: () => T, tx: (fn: () => T) => T = (fn) => this.db.transaction(fn)()): T {
    const value = tx(() => {
      const v = write();
      this.remove(id);
      return v;
    });
    this.release(id);
    return value;
  }

  /** After the record is written: the kept journal folder of `id` goes. */
  release(id: string): void {
    releaseJournal(this.journalDir, id);
  }

  /** Where the transaction of `id` stands (fs/journal.ts `journalOutcome`). */
  outcome(id: string): 'committed' | 'open' | 'none' {
    return journalOutcome(this.journalDir, id);
  }

  /** Intents whose writer is gone (a killed process), oldest first: what a start must settle. */
  orphaned(): Intent[] {
    const rows = this.db.prepare('SELECT * FROM history_intents ORDER BY created, id').all() as Row[];
    return rows
      .filter((r) => !ownerAlive({ pid: r.pid, started: r.started }))
      .map((r) => ({
        id: r.id,
        sessionId: r.session_id,
        kind: r.kind as IntentKind,
        data: JSON.parse(r.data) as unknown,
        pid: r.pid,
        started: r.started,
        created: r.created,
      }));
  }

  /** True when a row of `id` exists (a kept journal folder without one was completed and can go). */
  has(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM history_intents WHERE id = ?').get(id) !== undefined;
  }

  /**
   * Kept journal folders whose record was written (no row) and whose writer is gone: killed between the record and
   * the release. They are released; returns how many.
   */
  releaseStrays(): number {
    let n = 0;
    for (const id of keptJournals(this.journalDir)) {
      if (this.has(id)) continue;
      const found = readJournal(path.join(this.journalDir, id));
      if (!found.committed || (found.plan && ownerAlive(found.plan))) continue;
      this.release(id);
      n++;
    }
    return n;
  }
}
