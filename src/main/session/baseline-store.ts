/**
 * The stored baseline of each session and its change notices (agent/context/baseline.ts builds them).
 *
 * The baseline is written once per session, with a record of every source as it was read (its text and a
 * SHA-256 hash). A change notice is stored with the step it precedes (`before_part`: that step's step-start part)
 * and the full source record after it. The record in force is the latest notice's whose step is still in the
 * session (a revert's cleanup deletes the step, and with it what the model was told there), else the baseline's.
 * A compaction that folds the steps a notice was told at rebuilds the baseline from the record after it
 * (`recordThrough`), so what the model reads of a changed source is its new text, never a summary of it.
 */
import type { Db } from './db';

/** One source of what the model was told: its key, what the user sees it as, the text sent, the text's hash. */
export interface ContextSource {
  /** 'environment' | 'date' | 'global' | 'level:<dir>' | 'nested:<dir>'. */
  key: string;
  /** A path (instruction files) or a name (environment, date). */
  label: string;
  /** The text the model reads for this source ('' when the file does not exist). */
  text: string;
  /** SHA-256 hex of `text`. */
  hash: string;
  /** Instruction files: absolute path read, its size in bytes, and the bytes left out by the cap. */
  path?: string;
  bytes?: number;
  cutBytes?: number;
}

/** A session's baseline: the text sent after the system prompt, its sources, when it was built (ms). */
export interface StoredBaseline {
  text: string;
  sources: ContextSource[];
  time: number;
}

/** A stored change notice: the step-start part it precedes and its text. */
export interface StoredNotice {
  seq: number;
  beforePart: string;
  text: string;
  time: number;
}

/** Baselines and notices in the session database. */
export class BaselineStore {
  constructor(private readonly db: Db) {}

  /** The session's baseline, or undefined before its first model call. */
  get(sessionId: string): StoredBaseline | undefined {
    const r = this.db.prepare('SELECT text, sources, time FROM baselines WHERE session_id = ?').get(sessionId) as
      { text: string; sources: string; time: number } | undefined;
    return r ? { text: r.text, sources: JSON.parse(r.sources) as ContextSource[], time: r.time } : undefined;
  }

  /** Store the session's baseline; a baseline already stored is kept (first writer wins) and returned. */
  put(sessionId: string, text: string, sources: ContextSource[]): StoredBaseline {
    this.db
      .prepare('INSERT OR IGNORE INTO baselines (session_id, text, sources, time) VALUES (?, ?, ?, ?)')
      .run(sessionId, text, JSON.stringify(sources), Date.now());
    return this.get(sessionId) as StoredBaseline;
  }

  /** Store notices before the step `beforePart` and the source record after them, in one transaction. */
  addNotices(sessionId: string, beforePart: string, texts: string[], sources: ContextSource[]): void {
    const insert = this.db.prepare(
      'INSERT INTO context_notices (session_id, before_part, text, sources, time) VALUES (?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      const json = JSON.stringify(sources);
      // every notice row carries the record; only the last one's is read back
      for (const t of texts) insert.run(sessionId, beforePart, t, json, Date.now());
      if (texts.length === 0) insert.run(sessionId, beforePart, '', json, Date.now());
    })();
  }

  /** The source record in force (module docstring), or undefined before the baseline. */
  sources(sessionId: string): ContextSource[] | undefined {
    const r = this.db
      .prepare(
        `SELECT n.sources FROM context_notices n JOIN parts p ON p.id = n.before_part
         WHERE n.session_id = ? ORDER BY n.seq DESC LIMIT 1`,
      )
      .get(sessionId) as { sources: string } | undefined;
    if (r) return JSON.parse(r.sources) as ContextSource[];
    return this.get(sessionId)?.sources;
  }

  /**
   * The source record after the latest notice (by order of storing) told before one of the steps `steps`
   * (step-start part ids) that is still in the session; undefined when none of them carries a notice. A compaction
   * that folds those steps rebuilds the baseline from it (agent/context/turn-context.ts).
   */
  recordThrough(sessionId: string, steps: ReadonlySet<string>): ContextSource[] | undefined {
    if (steps.size === 0) return undefined;
    const rows = this.db
      .prepare(
        `SELECT n.before_part, n.sources FROM context_notices n JOIN parts p ON p.id = n.before_part
         WHERE n.session_id = ? ORDER BY n.seq DESC`,
      )
      .all(sessionId) as { before_part: string; sources: string }[];
    const hit = rows.find((r) => steps.has(r.before_part));
    return hit ? (JSON.parse(hit.sources) as ContextSource[]) : undefined;
  }

  /** Notices whose step is still in the session, by the step-start part they precede, oldest first. */
  notices(sessionId: string): Map<string, string[]> {
    const rows = this.db
      .prepare(
        `SELECT n.before_part, n.text FROM context_notices n JOIN parts p ON p.id = n.before_part
         WHERE n.session_id = ? AND n.text != '' ORDER BY n.seq`,
      )
      .all(sessionId) as { before_part: string; text: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.before_part, [...(out.get(r.before_part) ?? []), r.text]);
    return out;
  }
}
