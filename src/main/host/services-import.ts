/**
 * Session import uploads (`sessions.importBegin` / `importPart` / `importEnd`): an export of up to
 * SESSION_IMPORT_MAX_CHARS arrives in parts that each fit one WebSocket frame (src/shared/limits.ts), and is then
 * imported as one document by the core — all or nothing, as `sessions.import` is.
 *
 * Rules: the length is declared up front and a larger one is refused then (`too_large`, nothing kept); parts come
 * in order (`offset` must equal what was received, else `conflict` naming the expected offset, so a client can
 * resend); more than the declared length is refused; end with less is `invalid_input`. An upload ends (its text
 * dropped) at `importEnd` whatever the outcome. At most IMPORT_UPLOADS_OPEN_MAX are open: beginning another drops
 * the one least recently touched, and one untouched for UPLOAD_IDLE_MS is dropped at the next begin, so an
 * abandoned upload (a page closed midway) cannot hold memory for long.
 */
import { randomUUID } from 'node:crypto';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Session } from '../../shared/model';
import { IMPORT_UPLOADS_OPEN_MAX, SESSION_IMPORT_MAX_CHARS } from '../../shared/limits';

/** An upload idle this long (ms) is dropped when the next one begins. */
export const UPLOAD_IDLE_MS = 10 * 60_000;

interface Upload {
  projectId: string;
  length: number;
  parts: string[];
  received: number;
  touched: number;
}

export interface ImportUploads {
  begin(projectId: string, length: number): Result<{ uploadId: string }>;
  part(uploadId: string, offset: number, text: string): Result<{ received: number }>;
  end(uploadId: string): Result<Session>;
}

const GONE_HINT = 'Start the import again (Import…).';

/** Uploads over `importSession` (the core's import of one JSON text). `now` is the clock (ms), for tests. */
export function importUploads(
  importSession: (projectId: string, json: string) => Result<Session>,
  now: () => number = Date.now,
): ImportUploads {
  const open = new Map<string, Upload>();
  const unknown = (uploadId: string): Result<never> =>
    fail('invalid_input', `No import upload ${uploadId} is open (it ended, or was dropped after a while).`, GONE_HINT);
  return {
    begin(projectId, length) {
      if (length > SESSION_IMPORT_MAX_CHARS)
        return fail(
          'too_large',
          `This export is ${length.toLocaleString('en-US')} characters; Landfall imports session exports of at most ${SESSION_IMPORT_MAX_CHARS.toLocaleString('en-US')}.`,
          'Nothing was sent or imported. Import a smaller export.',
          { length, limit: SESSION_IMPORT_MAX_CHARS },
        );
      for (const [id, u] of open) if (now() - u.touched > UPLOAD_IDLE_MS) open.delete(id);
      while (open.size >= IMPORT_UPLOADS_OPEN_MAX) {
        const oldest = [...open.entries()].sort((a, b) => a[1].touched - b[1].touched)[0];
        if (oldest) open.delete(oldest[0]);
      }
      const uploadId = `upl_${randomUUID()}`;
      open.set(uploadId, { projectId, length, parts: [], received: 0, touched: now() });
      return ok({ uploadId });
    },
    part(uploadId, offset, text) {
      const u = open.get(uploadId);
      if (!u) return unknown(uploadId);
      u.touched = now();
      if (offset !== u.received)
        return fail(
          'conflict',
          `This part starts at ${offset}, but ${u.received} characters were received so far.`,
          `Send the part that starts at ${u.received}.`,
          { expected: u.received },
        );
      if (u.received + text.length > u.length)
        return fail(
          'invalid_input',
          `The parts are longer than the ${u.length} characters declared at the start.`,
          'Begin the upload again with the whole length.',
          { declared: u.length },
        );
      u.parts.push(text);
      u.received += text.length;
      return ok({ received: u.received });
    },
    end(uploadId) {
      const u = open.get(uploadId);
      if (!u) return unknown(uploadId);
      open.delete(uploadId);
      if (u.received !== u.length)
        return fail(
          'invalid_input',
          `The upload ended after ${u.received} of ${u.length} characters; nothing was imported.`,
          GONE_HINT,
          { received: u.received, declared: u.length },
        );
      return importSession(u.projectId, u.parts.join(''));
    },
  };
}
