/**
 * The admission queue (DESIGN §11 "Admit, then promote"): a message the user sends is written here at once
 * (admitted, `queued`) — also while a turn runs — and joins the history (promoted) at a safe point: when the
 * running turn ends, or between two steps for a "send now" (steer) message. Promotion is one transaction that
 * inserts the user message and marks the row `promoted` with its message id, so a message is promoted exactly
 * once: a crash before it leaves the row queued (shown, editable, run once later), a crash after it leaves the
 * message in the history and the row promoted. Queued rows may be edited or removed; promoted ones may not.
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Message } from '../../shared/model';
import { newId } from './ids';
import type { SessionStore } from './store';

/** One admitted message. */
export interface InboxItem {
  id: string;
  sessionId: string;
  text: string;
  time: number;
  /** "Send now": promoted at the next step boundary of the running turn. */
  steer: boolean;
  state: 'queued' | 'promoted';
  messageId?: string;
}

interface Row {
  id: string;
  session_id: string;
  text: string;
  time: number;
  steer: number;
  state: 'queued' | 'promoted';
  message_id: string | null;
}

function item(r: Row): InboxItem {
  return {
    id: r.id,
    sessionId: r.session_id,
    text: r.text,
    time: r.time,
    steer: r.steer === 1,
    state: r.state,
    ...(r.message_id === null ? {} : { messageId: r.message_id }),
  };
}

/** Admit `text` (stored before anything else happens). */
export function admit(store: SessionStore, sessionId: string, text: string, steer = false): InboxItem {
  const id = newId('inb');
  const time = Date.now();
  store.db
    .prepare("INSERT INTO inbox (id, session_id, text, time, steer, state) VALUES (?, ?, ?, ?, ?, 'queued')")
    .run(id, sessionId, text, time, steer ? 1 : 0);
  return { id, sessionId, text, time, steer, state: 'queued' };
}

/** The session's queued messages, oldest first (`steerOnly`: only "send now" ones). */
export function queued(store: SessionStore, sessionId: string, steerOnly = false): InboxItem[] {
  const rows = store.db
    .prepare(
      `SELECT * FROM inbox WHERE session_id = ? AND state = 'queued' ${steerOnly ? 'AND steer = 1' : ''} ORDER BY ord`,
    )
    .all(sessionId) as Row[];
  return rows.map(item);
}

/** One item by id, or undefined. */
export function inboxItem(store: SessionStore, id: string): InboxItem | undefined {
  const r = store.db.prepare('SELECT * FROM inbox WHERE id = ?').get(id) as Row | undefined;
  return r ? item(r) : undefined;
}

const notQueued = (id: string) =>
  fail('conflict', `Message ${id} is no longer queued: it was sent to the model.`, 'Send a new message instead.');

/**
 * Promote a queued item: in one transaction, the user message (with its text part) and the row marked promoted.
 * Error `conflict` when the row is not queued (promoted already, or removed) — nothing is written.
 */
export function promote(store: SessionStore, id: string): Result<{ message: Message; text: string }> {
  return store.tx(() => {
    const cur = inboxItem(store, id);
    if (!cur || cur.state !== 'queued') return notQueued(id);
    const message = store.addMessage(cur.sessionId, 'user', cur.text);
    store.putPart({
      id: `${message.id}_text`,
      sessionId: cur.sessionId,
      messageId: message.id,
      time: message.time,
      type: 'text',
      text: cur.text,
    });
    store.db.prepare("UPDATE inbox SET state = 'promoted', message_id = ? WHERE id = ?").run(message.id, id);
    return ok({ message, text: cur.text });
  });
}

/** Change a queued message's text (or its "send now" flag). Errors: `conflict` once promoted; `invalid_input` for empty text. */
export function editQueued(
  store: SessionStore,
  sessionId: string,
  id: string,
  change: { text?: string; steer?: boolean },
): Result<InboxItem> {
  if (change.text !== undefined && change.text.trim() === '')
    return fail('invalid_input', 'A queued message cannot be empty.', 'Remove it instead.');
  return store.tx(() => {
    const cur = inboxItem(store, id);
    if (!cur || cur.sessionId !== sessionId || cur.state !== 'queued') return notQueued(id);
    const text = change.text ?? cur.text;
    const steer = change.steer ?? cur.steer;
    store.db.prepare('UPDATE inbox SET text = ?, steer = ? WHERE id = ?').run(text, steer ? 1 : 0, id);
    return ok({ ...cur, text, steer });
  });
}

/** Remove a queued message. Error `conflict` once promoted (or already removed). */
export function removeQueued(store: SessionStore, sessionId: string, id: string): Result<void> {
  return store.tx(() => {
    const cur = inboxItem(store, id);
    if (!cur || cur.sessionId !== sessionId || cur.state !== 'queued') return notQueued(id);
    store.db.prepare('DELETE FROM inbox WHERE id = ?').run(id);
    return ok(undefined);
  });
}
