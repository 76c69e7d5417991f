/**
 * The session database (DESIGN §5): one SQLite file (better-sqlite3, WAL) in the app's data folder.
 *
 * Migrations are an ordered list; `PRAGMA user_version` records how many ran, and each runs in its own
 * transaction, so an interrupted upgrade leaves the previous version intact. Foreign keys are on: parts belong to
 * messages, messages to sessions, sessions to projects, each deleted with its owner. The event log has no foreign
 * key on purpose — it is append-only and outlives what it describes.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LandfallFailure } from '../../shared/errors';

export type Db = Database.Database;

const MIGRATIONS: string[] = [
  `CREATE TABLE projects (
     id TEXT PRIMARY KEY, root TEXT NOT NULL UNIQUE, name TEXT NOT NULL, last_opened INTEGER NOT NULL);
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
     title TEXT NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL, revert TEXT);
   CREATE INDEX sessions_project ON sessions(project_id, updated);
   CREATE TABLE messages (
     ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     role TEXT NOT NULL CHECK (role IN ('user','assistant')), time INTEGER NOT NULL, text TEXT);
   CREATE INDEX messages_session ON messages(session_id, ord);
   CREATE TABLE parts (
     ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
     message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     type TEXT NOT NULL, state TEXT, data TEXT NOT NULL, time INTEGER NOT NULL);
   CREATE INDEX parts_message ON parts(message_id, ord);
   CREATE INDEX parts_session_type ON parts(session_id, type);
   CREATE INDEX parts_state ON parts(state) WHERE state IS NOT NULL;
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, type TEXT NOT NULL, data TEXT NOT NULL, time INTEGER NOT NULL);`,
  // The request ledger (session/ledger.ts): every model request as sent, its pieces stored once per session by hash.
  `CREATE TABLE ledger_blobs (
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, hash TEXT NOT NULL,
     json TEXT NOT NULL, tokens INTEGER NOT NULL, PRIMARY KEY (session_id, hash));
   CREATE TABLE ledger (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     message_id TEXT NOT NULL, step INTEGER NOT NULL, time INTEGER NOT NULL, model TEXT NOT NULL,
     system TEXT NOT NULL, tools TEXT NOT NULL, messages TEXT NOT NULL, usage TEXT);
   CREATE INDEX ledger_session ON ledger(session_id, seq);`,
  // The baseline and change notices (session/baseline-store.ts): what the model was told about its environment.
  `CREATE TABLE baselines (
     session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
     text TEXT NOT NULL, sources TEXT NOT NULL, time INTEGER NOT NULL);
   CREATE TABLE context_notices (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     before_part TEXT NOT NULL, text TEXT NOT NULL, sources TEXT NOT NULL, time INTEGER NOT NULL);
   CREATE INDEX context_notices_session ON context_notices(session_id, seq);`,
  // conversation layer (session/talk.ts): the mode each message was sent or answered in
  `ALTER TABLE messages ADD COLUMN mode TEXT;`,
  // the mode and model a session's next step uses (chosen in the chat, kept across restarts)
  `CREATE TABLE session_talk (
     session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
     mode TEXT NOT NULL, provider TEXT, model TEXT);`,
  // the admission queue (session/inbox.ts): what the user sent, stored at once, promoted into the history once
  `CREATE TABLE inbox (
     ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     text TEXT NOT NULL, time INTEGER NOT NULL, steer INTEGER NOT NULL DEFAULT 0,
     state TEXT NOT NULL CHECK (state IN ('queued','promoted')), message_id TEXT);
   CREATE INDEX inbox_session ON inbox(session_id, state, ord);`,
  // a history move or review decision whose work-tree write may be committed before its record (session/intents.ts)
  `CREATE TABLE history_intents (
     id TEXT PRIMARY KEY, session_id TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
     pid INTEGER NOT NULL, started TEXT NOT NULL, created INTEGER NOT NULL);`,
  // session search (session/search.ts): the text parts of every message in an FTS5 index (trigram: substrings,
  // case folded), kept by triggers in the same transaction as the part; filled from the parts already stored
  `CREATE VIRTUAL TABLE search_text USING fts5(
     text, part_id UNINDEXED, message_id UNINDEXED, session_id UNINDEXED, tokenize = 'trigram');
   CREATE TRIGGER search_text_insert AFTER INSERT ON parts WHEN new.type = 'text' BEGIN
     INSERT INTO search_text (rowid, text, part_id, message_id, session_id)
       VALUES (new.ord, json_extract(new.data, '$.text'), new.id, new.message_id, new.session_id);
   END;
   CREATE TRIGGER search_text_update AFTER UPDATE OF data ON parts WHEN new.type = 'text' BEGIN
     DELETE FROM search_text WHERE rowid = old.ord;
     INSERT INTO search_text (rowid, text, part_id, message_id, session_id)
       VALUES (new.ord, json_extract(new.data, '$.text'), new.id, new.message_id, new.session_id);
   END;
   CREATE TRIGGER search_text_delete AFTER DELETE ON parts WHEN old.type = 'text' BEGIN
     DELETE FROM search_text WHERE rowid = old.ord;
   END;
   INSERT INTO search_text (rowid, text, part_id, message_id, session_id)
     SELECT ord, json_extract(data, '$.text'), id, message_id, session_id FROM parts WHERE type = 'text';`,
  // turns running now, by any process on this data folder (session/running.ts): the session list's running dot
  // after a reload, and a turn another window or the command line runs
  `CREATE TABLE running_turns (
     session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
     pid INTEGER NOT NULL, since INTEGER NOT NULL);`,
];

/** Schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The schema version stored in `db`, read before anything is written. Throws LandfallFailure `io_error` when the
 * file is not an SQLite database (damaged, or another kind of file), `unavailable` when its schema is newer than
 * this code (a downgrade would lose data). Either way the file has not been changed.
 */
function checkedVersion(db: Db, file: string): number {
  let current: number;
  try {
    current = db.pragma('user_version', { simple: true }) as number;
  } catch (e) {
    throw new LandfallFailure({
      code: 'io_error',
      message: `${file} is not a readable session database (${(e as Error).message}).`,
      hint: 'Move it aside (it was not changed) and start Landfall again to create a fresh one, or restore a backup.',
      data: { path: file },
    });
  }
  if (current > SCHEMA_VERSION) {
    throw new LandfallFailure({
      code: 'unavailable',
      message: `${file}: session database schema ${current} is newer than this Landfall (${SCHEMA_VERSION}).`,
      hint: 'Update Landfall to open it (the file was not changed), or point Landfall at another data folder.',
      data: { path: file, schema: current, supported: SCHEMA_VERSION },
    });
  }
  return current;
}

/**
 * Open (creating if needed) the database at `file`, in WAL mode with foreign keys on, and run pending migrations.
 * The version is checked before any pragma or migration writes, so a refused file keeps its exact bytes.
 * Throws LandfallFailure `io_error` (not a database) or `unavailable` (schema newer than SCHEMA_VERSION).
 */
export function openDb(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  let current: number;
  try {
    current = checkedVersion(db, file);
  } catch (e) {
    db.close();
    throw e;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, current);
  keepStatements(db);
  return db;
}

/** Statement texts a connection keeps at most (the stores use a few dozen). */
const MAX_KEPT_STATEMENTS = 512;

/**
 * Makes `db.prepare(sql)` hand back the statement it prepared for the same text before (compiling one costs as
 * much as running it: the stores prepare at every call, thousands of times a turn). A statement still busy with an
 * `iterate()` is not handed out again: that call gets a fresh one. The stores set no sticky mode on a statement
 * (`pluck`, `raw`, `expand`, `safeIntegers`, `bind`), so a reused one behaves as a fresh one; the cache lives and
 * dies with the connection (at most MAX_KEPT_STATEMENTS texts), and SQLite prepares a statement again by itself
 * after a schema change.
 */
function keepStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const kept = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const known = kept.get(sql);
    if (known && !known.busy) return known;
    const fresh = prepare(sql);
    if (!known && kept.size < MAX_KEPT_STATEMENTS) kept.set(sql, fresh);
    return fresh;
  }) as Db['prepare'];
}

function migrate(db: Db, current: number): void {
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] ?? '');
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
