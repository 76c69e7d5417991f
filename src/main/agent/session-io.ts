/**
 * Export / import of one session as a single JSON document: the session row, its messages (with the user's
 * prompt text) and their parts. Import gives every session, message and part a fresh id (so a session can be
 * imported twice, or into another project) and drops the revert boundary; tree hashes in step and patch parts
 * are kept as they are (they revert only when the snapshot store holds them). A tool part exported mid-run comes back
 * `error: interrupted`.
 *
 * A session exported while reverted exports only what is live: the messages (or, for a part-level boundary, the
 * parts) at and after the boundary are left out, and `leftOut` says how many, so an import never brings the
 * reverted turns back as if they had happened — an import has no snapshot trees to restore or unrevert them with.
 * The document's `session` carries no `revert` for the same reason.
 */
import { z } from 'zod';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { MessageSchema, PartSchema, SessionSchema, type Part, type Session } from '../../shared/model';
import { newId } from '../session/ids';
import type { SessionStore } from '../session/store';

export const SESSION_EXPORT_FORMAT = 'landfall.session';

export const sessionExportSchema = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.literal(1),
  session: SessionSchema,
  messages: z.array(MessageSchema.extend({ text: z.string().optional(), parts: z.array(PartSchema) })),
  /** Present when the session was exported while reverted: what lay after the boundary and is not in `messages`. */
  leftOut: z
    .object({ reason: z.literal('reverted'), messages: z.number().int().min(0), parts: z.number().int().min(0) })
    .optional(),
});
export type SessionExport = z.infer<typeof sessionExportSchema>;

/** The export document of a session. Error `invalid_input` when the session does not exist. */
export function exportSession(store: SessionStore, sessionId: string): Result<SessionExport> {
  const session = store.getSession(sessionId);
  if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
  const all = store
    .messages(sessionId)
    .map((m) => ({ ...m, text: m.role === 'user' ? store.messageText(m.id) : undefined, parts: m.parts }));
  if (!session.revert) return ok({ format: SESSION_EXPORT_FORMAT, version: 1, session, messages: all });
  const messages = liveOnly(all, session.revert);
  const live: Session = { ...session };
  delete live.revert;
  const count = (ms: typeof all): number => ms.reduce((n, m) => n + m.parts.length, 0);
  const leftOut = {
    reason: 'reverted' as const,
    messages: all.length - messages.length,
    parts: count(all) - count(messages),
  };
  return ok({ format: SESSION_EXPORT_FORMAT, version: 1, session: live, messages, leftOut });
}

/**
 * The messages before a revert boundary — what cleanup (revert.ts) would keep: a message-level boundary drops that
 * message and all later ones; a part-level one keeps the message up to (not including) that part. An unknown
 * boundary message keeps everything (cleanup does the same).
 */
function liveOnly<M extends { id: string; parts: Part[] }>(
  messages: M[],
  b: { messageId: string; partId?: string },
): M[] {
  const at = messages.findIndex((m) => m.id === b.messageId);
  if (at < 0) return messages;
  if (b.partId === undefined) return messages.slice(0, at);
  const msg = messages[at] as M;
  const pi = msg.parts.findIndex((p) => p.id === b.partId);
  return [...messages.slice(0, at), { ...msg, parts: msg.parts.slice(0, Math.max(pi, 0)) }];
}

/** The message a document with a higher `version` than this code reads gets (instead of a schema dump). */
function newerVersion(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { format, version } = value as { format?: unknown; version?: unknown };
  return format === SESSION_EXPORT_FORMAT && typeof version === 'number' && version > 1 ? version : undefined;
}

/**
 * A part as it is stored in the importing session: fresh id (the user's text part keeps the `<messageId>_text`
 * form the loop gives it), and a tool part exported while pending or running comes back `error: interrupted`, as
 * crash recovery would leave it — nothing will ever finish it.
 */
function importedPart(p: Part, sourceMessageId: string, sessionId: string, messageId: string): Part {
  const id = p.id === `${sourceMessageId}_text` ? `${messageId}_text` : newId('prt');
  const part = { ...p, id, sessionId, messageId } as Part;
  if (part.type !== 'tool' || (part.state !== 'pending' && part.state !== 'running')) return part;
  return {
    ...part,
    state: 'error',
    error: { code: 'interrupted', message: 'Interrupted: the session was exported while this tool was running.' },
  };
}

/**
 * Import an export document (object or JSON text) into `projectId`: fresh ids, revert boundary dropped, running
 * tool parts interrupted (importedPart). Error `invalid_input` (nothing written) for text that is not JSON, a
 * document that is not an export (or from a newer export version), or an unknown project. `stored` hears each
 * message stored (done, total; for a progress report).
 */
export function importSession(
  store: SessionStore,
  projectId: string,
  json: unknown,
  stored?: (done: number, total: number) => void,
): Result<Session> {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      return fail('invalid_input', `Not JSON: ${(e as Error).message}`, 'Import a file written by Export session.');
    }
  }
  const newer = newerVersion(value);
  if (newer !== undefined) {
    return fail(
      'invalid_input',
      `This session export is version ${newer}, written by a newer Landfall (this one reads version 1).`,
      'Update Landfall, then import it again.',
    );
  }
  const parsed = sessionExportSchema.safeParse(value);
  if (!parsed.success)
    return fail(
      'invalid_input',
      `Not a Landfall session export: ${parsed.error.message}`,
      'Import a file written by Export session.',
    );
  if (!store.getProject(projectId)) return fail('invalid_input', `No project ${projectId}.`, 'Open the project first.');
  const doc = parsed.data;
  const session = store.tx(() => {
    const s = store.createSession(projectId, doc.session.title, newId('ses'), doc.session.created);
    for (const [i, m] of doc.messages.entries()) {
      const msg = store.addMessage(s.id, m.role, m.text, newId('msg'), m.time);
      for (const p of m.parts) store.putPart(importedPart(p as Part, m.id, s.id, msg.id));
      stored?.(i + 1, doc.messages.length);
    }
    return s;
  });
  return ok(store.getSession(session.id) as Session);
}
