/**
 * SessionStore: projects, sessions, messages and parts in SQLite, with every change logged in the append-only
 * event table IN THE SAME TRANSACTION (DESIGN §5), so the log never claims a change that did not happen and no
 * change is missing from it. Sequence numbers come from AUTOINCREMENT; a rolled-back transaction rolls back its
 * sequence too, so the log has no gaps.
 *
 * Stored events are handed to `onEvent` only after their transaction commits.
 */
import type { Db } from './db';
import { openDb } from './db';
import { newId } from './ids';
import { claimOwner, releaseOwner } from './owner';
import { clearStaleTurns } from './running';
import type { CoreEvent } from '../../shared/events';
import type { Message, MessageWithParts, Part, Project, RevertState, Session } from '../../shared/model';

type Stored = Exclude<
  CoreEvent,
  { type: 'text.delta' | 'reasoning.delta' | 'session.state' | 'question.asked' | 'queue.updated' }
>;
type Unsequenced = Stored extends infer E ? (E extends { seq: number } ? Omit<E, 'seq'> : never) : never;

interface SessionRow {
  id: string;
  project_id: string;
  title: string;
  created: number;
  updated: number;
  revert: string | null;
}

function toSession(r: SessionRow): Session {
  const s: Session = { id: r.id, projectId: r.project_id, title: r.title, created: r.created, updated: r.updated };
  if (r.revert) s.revert = JSON.parse(r.revert) as RevertState;
  return s;
}

/** The store. Construct with `SessionStore.open(file, onEvent)`. */
export class SessionStore {
  private pending: CoreEvent[] = [];
  private depth = 0;

  private constructor(
    readonly db: Db,
    private readonly onEvent: (e: CoreEvent) => void,
    private readonly ownerFile: string,
  ) {}

  /**
   * Open the database file and run crash recovery (see `recoverInterrupted`) — unless another live process has
   * it open (owner.ts), whose running tools are not interrupted. Records of running turns whose process is gone
   * are removed either way (running.ts).
   */
  static open(file: string, onEvent: (e: CoreEvent) => void = () => {}): SessionStore {
    const store = new SessionStore(openDb(file), onEvent, `${file}.owner`);
    clearStaleTurns(store.db);
    if (claimOwner(store.ownerFile)) store.recoverInterrupted();
    return store;
  }

  /** Run `fn` in one transaction; events it logs are emitted after commit (dropped on rollback). */
  tx<T>(fn: () => T): T {
    this.depth++;
    const mark = this.pending.length;
    let result: T;
    try {
      result = this.db.transaction(fn)();
    } catch (e) {
      this.depth--;
      // a nested transaction is a savepoint: its rows and events roll back together, the outer one goes on
      this.pending.length = mark;
      throw e;
    }
    this.depth--;
    if (this.depth === 0) {
      const out = this.pending;
      this.pending = [];
      for (const ev of out) this.onEvent(ev);
    }
    return result;
  }

  /** Append an event to the log (must run inside `tx`); returns it with its sequence number. */
  private log(event: Unsequenced): CoreEvent {
    const sessionId =
      'sessionId' in event
        ? event.sessionId
        : 'session' in event
          ? event.session.id
          : 'part' in event
            ? event.part.sessionId
            : 'message' in event
              ? event.message.sessionId
              : null;
    const info = this.db
      .prepare('INSERT INTO events (session_id, type, data, time) VALUES (?, ?, ?, ?)')
      .run(sessionId, event.type, JSON.stringify(event), Date.now());
    const full = { ...event, seq: Number(info.lastInsertRowid) } as CoreEvent;
    this.pending.push(full);
    return full;
  }

  /**
   * Crash recovery (DESIGN §5): a tool part left `pending`/`running` becomes `error: interrupted`; it is never
   * re-run. Returns the number of parts changed.
   */
  recoverInterrupted(): number {
    const rows = this.db.prepare("SELECT data FROM parts WHERE state IN ('pending','running')").all() as {
      data: string;
    }[];
    this.tx(() => {
      for (const r of rows) {
        const part = JSON.parse(r.data) as Part;
        if (part.type !== 'tool') continue;
        this.putPart({
          ...part,
          state: 'error',
          error: {
            code: 'interrupted',
            message: 'Interrupted: Landfall stopped while this tool was running; it was not re-run.',
          },
        });
      }
    });
    return rows.length;
  }

  // ---- projects ----

  /** Find or create the project rooted at `root` (absolute real path); updates lastOpened. */
  upsertProject(root: string, name: string): Project {
    return this.tx(() => {
      const now = Date.now();
      const row = this.db.prepare('SELECT id FROM projects WHERE root = ?').get(root) as { id: string } | undefined;
      const id = row?.id ?? newId('prj');
      this.db
        .prepare(
          'INSERT INTO projects (id, root, name, last_opened) VALUES (?, ?, ?, ?) ON CONFLICT(root) DO UPDATE SET last_opened = excluded.last_opened',
        )
        .run(id, root, name, now);
      return { id, root, name, lastOpened: now };
    });
  }

  /** Projects, most recently opened first. */
  listProjects(): Project[] {
    const rows = this.db
      .prepare('SELECT id, root, name, last_opened FROM projects ORDER BY last_opened DESC')
      .all() as { id: string; root: string; name: string; last_opened: number }[];
    return rows.map((r) => ({ id: r.id, root: r.root, name: r.name, lastOpened: r.last_opened }));
  }

  /** One project, or undefined. */
  getProject(id: string): Project | undefined {
    const r = this.db.prepare('SELECT id, root, name, last_opened FROM projects WHERE id = ?').get(id) as
      { id: string; root: string; name: string; last_opened: number } | undefined;
    return r ? { id: r.id, root: r.root, name: r.name, lastOpened: r.last_opened } : undefined;
  }

  // ---- sessions ----

  /** Create a session in a project. */
  createSession(projectId: string, title: string, id = newId('ses'), created = Date.now()): Session {
    return this.tx(() => {
      this.db
        .prepare('INSERT INTO sessions (id, project_id, title, created, updated, revert) VALUES (?, ?, ?, ?, ?, NULL)')
        .run(id, projectId, title, created, created);
      const session = this.getSession(id) as Session;
      this.log({ type: 'session.updated', session });
      return session;
    });
  }

  /** One session, or undefined. */
  getSession(id: string): Session | undefined {
    const r = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return r ? toSession(r) : undefined;
  }

  /** Sessions of a project, most recently updated first. */
  listSessions(projectId: string): Session[] {
    const rows = this.db
      .prepare('SELECT * FROM sessions WHERE project_id = ? ORDER BY updated DESC')
      .all(projectId) as SessionRow[];
    return rows.map(toSession);
  }

  /** Change title and/or revert boundary (`revert: null` clears it). Returns the new row. */
  updateSession(id: string, patch: { title?: string; revert?: RevertState | null }): Session {
    return this.tx(() => {
      const cur = this.getSession(id);
      if (!cur) throw new Error(`unknown session ${id}`);
      const title = patch.title ?? cur.title;
      const revert = patch.revert === undefined ? (cur.revert ?? null) : patch.revert;
      this.db
        .prepare('UPDATE sessions SET title = ?, revert = ?, updated = ? WHERE id = ?')
        .run(title, revert ? JSON.stringify(revert) : null, Date.now(), id);
      const session = this.getSession(id) as Session;
      this.log({ type: 'session.updated', session });
      return session;
    });
  }

  /** Delete a session with its messages and parts (the event log keeps its history). */
  deleteSession(id: string): void {
    this.tx(() => {
      this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id);
      this.log({ type: 'session.deleted', sessionId: id });
    });
  }

  // ---- messages and parts ----

  /** Add a message; `text` is the user's prompt (kept for undo). */
  addMessage(sessionId: string, role: Message['role'], text?: string, id = newId('msg'), time = Date.now()): Message {
    return this.tx(() => {
      this.db
        .prepare('INSERT INTO messages (id, session_id, role, time, text) VALUES (?, ?, ?, ?, ?)')
        .run(id, sessionId, role, time, text ?? null);
      this.db.prepare('UPDATE sessions SET updated = ? WHERE id = ?').run(time, sessionId);
      const message: Message = { id, sessionId, role, time };
      this.log({ type: 'message.added', message });
      return message;
    });
  }

  /** The user's text of a message (user messages only). */
  messageText(messageId: string): string {
    const r = this.db.prepare('SELECT text FROM messages WHERE id = ?').get(messageId) as
      { text: string | null } | undefined;
    return r?.text ?? '';
  }

  /** Insert or replace a part (by id); logs `part.updated`. */
  putPart(part: Part): Part {
    return this.tx(() => {
      const state = part.type === 'tool' ? part.state : null;
      this.db
        .prepare(
          `INSERT INTO parts (id, message_id, session_id, type, state, data, time) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, data = excluded.data`,
        )
        .run(part.id, part.messageId, part.sessionId, part.type, state, JSON.stringify(part), part.time);
      this.log({ type: 'part.updated', part });
      return part;
    });
  }

  /**
   * Store a new version of a part that is still stored (a late update: diagnostics that arrived after the tool
   * finished). Returns undefined — writing and logging nothing — when the part is gone (its message was reverted
   * and cleaned up, or the session deleted), so a late update never brings a removed part back.
   */
  updatePart(part: Part): Part | undefined {
    return this.tx(() => {
      const state = part.type === 'tool' ? part.state : null;
      const r = this.db
        .prepare('UPDATE parts SET state = ?, data = ? WHERE id = ? AND session_id = ?')
        .run(state, JSON.stringify(part), part.id, part.sessionId);
      if (r.changes === 0) return undefined;
      this.log({ type: 'part.updated', part });
      return part;
    });
  }

  /** Log a snapshot-added event (in the caller's transaction when there is one). */
  logSnapshot(sessionId: string, messageId: string, hash: string, files: string[]): void {
    this.tx(() => {
      this.log({ type: 'snapshot.added', sessionId, messageId, hash, files });
    });
  }

  /** Log a permission event (asked/answered); returns it with its sequence number. */
  logPermission<T extends Extract<Unsequenced, { type: 'permission.asked' | 'permission.answered' }>>(
    event: T,
  ): T & { seq: number } {
    return this.tx(() => this.log(event) as unknown as T & { seq: number });
  }

  /** Messages of a session in order, each with its parts in order. */
  messages(sessionId: string): MessageWithParts[] {
    const msgs = this.db
      .prepare('SELECT id, session_id, role, time, mode FROM messages WHERE session_id = ? ORDER BY ord')
      .all(sessionId) as { id: string; session_id: string; role: Message['role']; time: number; mode: string | null }[];
    const parts = this.db
      .prepare('SELECT message_id, data FROM parts WHERE session_id = ? ORDER BY ord')
      .all(sessionId) as { message_id: string; data: string }[];
    const byMsg = new Map<string, Part[]>();
    for (const p of parts) {
      const list = byMsg.get(p.message_id) ?? [];
      list.push(JSON.parse(p.data) as Part);
      byMsg.set(p.message_id, list);
    }
    return msgs.map((m) => ({
      id: m.id,
      sessionId: m.session_id,
      role: m.role,
      time: m.time,
      ...(m.mode === null ? {} : { mode: m.mode }),
      parts: byMsg.get(m.id) ?? [],
    }));
  }

  /** Delete messages (with their parts) of a session; logs `message.removed`. */
  removeMessages(sessionId: string, messageIds: string[]): void {
    if (messageIds.length === 0) return;
    this.tx(() => {
      const del = this.db.prepare('DELETE FROM messages WHERE id = ? AND session_id = ?');
      for (const id of messageIds) del.run(id, sessionId);
      this.log({ type: 'message.removed', sessionId, messageIds });
    });
  }

  /** Delete single parts of a message (cleanup of a part-level boundary). */
  removeParts(sessionId: string, messageId: string, partIds: string[]): void {
    if (partIds.length === 0) return;
    const del = this.db.prepare('DELETE FROM parts WHERE id = ? AND message_id = ?');
    this.tx(() => {
      for (const id of partIds) del.run(id, messageId);
      this.log({ type: 'part.removed', sessionId, messageId, partIds });
    });
  }

  /**
   * Every tree hash a project's sessions still reference (step-start/finish snapshots, patch parts, revert
   * boundaries) — what snapshot gc must keep (DESIGN §4 reachability).
   */
  referencedTrees(projectId: string): string[] {
    const out = new Set<string>();
    const parts = this.db
      .prepare(
        `SELECT p.data FROM parts p JOIN sessions s ON s.id = p.session_id
      WHERE s.project_id = ? AND p.type IN ('step-start','step-finish','patch')`,
      )
      .all(projectId) as { data: string }[];
    for (const r of parts) {
      const p = JSON.parse(r.data) as Part;
      if (p.type === 'patch') out.add(p.hash);
      else if (p.type === 'step-start' || p.type === 'step-finish') out.add(p.snapshot);
    }
    for (const s of this.listSessions(projectId)) if (s.revert) out.add(s.revert.snapshot);
    return [...out];
  }

  /** Close the database. */
  close(): void {
    releaseOwner(this.ownerFile);
    this.db.close();
  }
}
