/**
 * What a session's next step uses — its mode and model (`session_talk`, one row per session) — and the mode each
 * message was sent or answered in (`messages.mode`). Both live in the session database, so a restart, a resume or
 * a compaction keeps them (DESIGN §11: mode is state, not history). Chosen in the chat; read by the loop at the
 * start of every step (agent/talk-steps.ts), so a switch takes effect at the next step, never inside one.
 */
import type { Db } from './db';

/** The choice for a session's next step. `provider` / `model` absent: the settings' default provider and model. */
export interface TalkChoice {
  mode: string;
  provider?: string;
  model?: string;
}

interface TalkRow {
  mode: string;
  provider: string | null;
  model: string | null;
}

/** The stored choice of `sessionId`, or undefined when the user never chose (build, default model). */
export function readTalk(db: Db, sessionId: string): TalkChoice | undefined {
  const r = db.prepare('SELECT mode, provider, model FROM session_talk WHERE session_id = ?').get(sessionId) as
    TalkRow | undefined;
  if (!r) return undefined;
  return {
    mode: r.mode,
    ...(r.provider === null ? {} : { provider: r.provider }),
    ...(r.model === null ? {} : { model: r.model }),
  };
}

/** Store the choice (replacing the previous one). */
export function writeTalk(db: Db, sessionId: string, choice: TalkChoice): void {
  db.prepare(
    `INSERT INTO session_talk (session_id, mode, provider, model) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET mode = excluded.mode, provider = excluded.provider, model = excluded.model`,
  ).run(sessionId, choice.mode, choice.provider ?? null, choice.model ?? null);
}

/** Record the mode a message was sent or answered in. */
export function writeMessageMode(db: Db, messageId: string, mode: string): void {
  db.prepare('UPDATE messages SET mode = ? WHERE id = ?').run(mode, messageId);
}
