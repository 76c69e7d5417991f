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
 *
 * Progress (agent/progress.ts, when a hub is given): each upload is one `import` operation of its project —
 * `upload` (characters received of the declared length, at most every PROGRESS_THROTTLE_MS), then at `importEnd`
 * `read` (parsing and checking the export) and `store` (messages stored of all). It ends `end` when the session is
 * imported and `failed` when the import is refused or the upload is dropped (idle, pushed out, or ended short) —
 * or when no part arrived for UPLOAD_STALL_MS (a page reloaded midway never sends another: its bar must not stay;
 * the upload itself stays open until dropped, and a part arriving later reports as a new operation), so no bar
 * outlives its upload. `singleImport` reports a one-call `sessions.import` the same way, without `upload`.
 */
import { randomUUID } from 'node:crypto';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Session } from '../../shared/model';
import { IMPORT_UPLOADS_OPEN_MAX, SESSION_IMPORT_MAX_CHARS } from '../../shared/limits';
import type { ProgressHub, ProgressRun } from '../agent/progress';

/** The core's import of one JSON text; `stored` hears each message stored (done, total). */
export type ImportSession = (
  projectId: string,
  json: string,
  stored?: (done: number, total: number) => void,
) => Result<Session>;

/** An upload idle this long (ms) is dropped when the next one begins. */
export const UPLOAD_IDLE_MS = 10 * 60_000;
/** An upload's progress ends (`failed`, `interrupted`) when no part arrived for this long (ms). */
export const UPLOAD_STALL_MS = 10_000;

interface Upload {
  projectId: string;
  length: number;
  parts: string[];
  received: number;
  touched: number;
  progress: ProgressRun | undefined;
  stall: ReturnType<typeof setTimeout> | undefined;
}

export interface ImportUploads {
  begin(projectId: string, length: number): Result<{ uploadId: string }>;
  part(uploadId: string, offset: number, text: string): Result<{ received: number }>;
  end(uploadId: string): Result<Session>;
}

const GONE_HINT = 'Start the import again (Import…).';

/**
 * Reads and stores `json` as one reported phase pair (`read`, then `store`) of `run`, ending it with the outcome.
 * Answers what `importSession` answered.
 */
function readAndStore(
  importSession: ImportSession,
  projectId: string,
  json: string,
  run: ProgressRun | undefined,
): Result<Session> {
  run?.phase('read');
  const r = importSession(projectId, json, (done, total) => {
    const count = { done, total, unit: 'messages' as const };
    if (done === 1) run?.phase('store', count);
    else run?.update(count);
  });
  if (r.ok) run?.end();
  else run?.fail({ code: r.error.code, message: r.error.message });
  return r;
}

/** A one-call `sessions.import` as one reported `import` operation of `projectId` (see the module docstring). */
export function singleImport(
  importSession: ImportSession,
  projectId: string,
  json: string,
  hub?: Pick<ProgressHub, 'begin'>,
): Result<Session> {
  return readAndStore(importSession, projectId, json, hub?.begin('import', { projectId }));
}

/**
 * Uploads over `importSession` (the core's import of one JSON text). `now` is the clock (ms), for tests; `hub`
 * reports each upload's progress (module docstring).
 */
export function importUploads(
  importSession: ImportSession,
  now: () => number = Date.now,
  hub?: Pick<ProgressHub, 'begin'>,
): ImportUploads {
  const open = new Map<string, Upload>();
  /** Ends `u`'s progress run (if any) as failed, for `why`. */
  const stop = (u: Upload, why: string): void => {
    clearTimeout(u.stall);
    u.progress?.fail({ code: 'interrupted', message: why });
    u.progress = undefined;
  };
  const drop = (id: string, why: string): void => {
    const u = open.get(id);
    if (u) stop(u, why);
    open.delete(id);
  };
  /** `u` is receiving: its progress run (a new one after a stall) counts what arrived; the stall timer restarts. */
  const receiving = (u: Upload): void => {
    if (!hub) return;
    const count = { done: u.received, total: u.length, unit: 'characters' as const };
    if (u.progress) u.progress.update(count);
    else {
      u.progress = hub.begin('import', { projectId: u.projectId });
      u.progress.phase('upload', count);
    }
    clearTimeout(u.stall);
    u.stall = setTimeout(() => stop(u, 'No part of the upload arrived for a while.'), UPLOAD_STALL_MS);
    u.stall.unref?.();
  };
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
      for (const [id, u] of open) if (now() - u.touched > UPLOAD_IDLE_MS) drop(id, 'The upload stood idle too long.');
      while (open.size >= IMPORT_UPLOADS_OPEN_MAX) {
        const oldest = [...open.entries()].sort((a, b) => a[1].touched - b[1].touched)[0];
        if (oldest) drop(oldest[0], 'Newer uploads pushed this one out.');
      }
      const uploadId = `upl_${randomUUID()}`;
      const u: Upload = {
        projectId,
        length,
        parts: [],
        received: 0,
        touched: now(),
        progress: undefined,
        stall: undefined,
      };
      open.set(uploadId, u);
      receiving(u);
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
      receiving(u);
      return ok({ received: u.received });
    },
    end(uploadId) {
      const u = open.get(uploadId);
      if (!u) return unknown(uploadId);
      open.delete(uploadId);
      clearTimeout(u.stall);
      if (u.received !== u.length) {
        const message = `The upload ended after ${u.received} of ${u.length} characters; nothing was imported.`;
        stop(u, message);
        return fail('invalid_input', message, GONE_HINT, { received: u.received, declared: u.length });
      }
      return readAndStore(
        importSession,
        u.projectId,
        u.parts.join(''),
        u.progress ?? hub?.begin('import', { projectId: u.projectId }),
      );
    },
  };
}
