/**
 * Observed versions (DESIGN §3, fixtures/bugs/README.md B28, B29): what each session last saw of each file — recorded by read and
 * by every successful write — so edit/write can refuse to work from a view the session never had
 * (`not_observed`) or from one the disk no longer matches (`stale`). Staleness is judged on the bytes (sha256),
 * not on mtime alone: a `touch` is not a change, a same-second rewrite is. The check runs before any matching,
 * so "the file changed" is never misreported as "not found".
 */
import { promises as fsp } from 'node:fs';
import { fail, ok, type Result } from '../../shared/errors';
import { readChecked } from './read-checked';
import { stampOf, type FileStamp } from './stamp';
import type { ResolvedPath } from './workspace';

export { stampOf } from './stamp';
export type { FileStamp } from './stamp';

/**
 * Read-before-edit memory, keyed by (session id, real absolute path); the tools reach it through their context
 * (`ToolContext.observed`). ObservedVersions below is the one implementation.
 */
export interface ObservedStore {
  record(sessionId: string, realPath: string, stamp: FileStamp): void;
  get(sessionId: string, realPath: string): FileStamp | undefined;
  forget(sessionId: string, realPath?: string): void;
}

/** Whose memory a check or a record uses: the session and its store (a tool context is one). */
export interface ObservedScope {
  sessionId: string;
  observed: ObservedStore;
}

/** In-memory ObservedStore keyed by (session id, real path). */
export class ObservedVersions implements ObservedStore {
  private readonly sessions = new Map<string, Map<string, FileStamp>>();

  /** Remember that `sessionId` saw `realPath` with this stamp (replaces an older one). */
  record(sessionId: string, realPath: string, stamp: FileStamp): void {
    let files = this.sessions.get(sessionId);
    if (!files) {
      files = new Map();
      this.sessions.set(sessionId, files);
    }
    files.set(realPath, stamp);
  }

  /** The last stamp `sessionId` saw of `realPath`, if any. */
  get(sessionId: string, realPath: string): FileStamp | undefined {
    return this.sessions.get(sessionId)?.get(realPath);
  }

  /** Forget one file of a session, or the whole session when `realPath` is omitted. */
  forget(sessionId: string, realPath?: string): void {
    if (realPath === undefined) this.sessions.delete(sessionId);
    else this.sessions.get(sessionId)?.delete(realPath);
  }
}

/**
 * Whether the session may change `resolved` from what it last saw. `current` are the bytes on disk now when the
 * caller already has them (avoids a second read). Errors: `not_observed` (never read nor written by this
 * session), `stale` (bytes differ from the last stamp, or the file was deleted since).
 */
export async function checkFresh(
  ctx: ObservedScope,
  resolved: ResolvedPath,
  current?: Uint8Array,
): Promise<Result<void>> {
  const seen = ctx.observed.get(ctx.sessionId, resolved.real);
  if (!seen) {
    return fail(
      'not_observed',
      `You have not read ${resolved.rel} in this session.`,
      `Read ${resolved.rel} first, then retry with its current content.`,
      { path: resolved.rel },
    );
  }
  let bytes = current;
  if (!bytes) {
    // Checked and bounded by the size last seen (read-checked.ts): more bytes than that is a change anyway.
    const read = await readChecked(resolved.real, seen.size);
    if (!read.ok)
      return staleFail(
        resolved,
        read.why === 'too_large' ? 'its bytes changed on disk' : 'it was deleted or cannot be read',
      );
    bytes = read.bytes;
  }
  if (bytes.length !== seen.size || stampOf(bytes, { size: bytes.length, mtimeMs: 0 }).hash !== seen.hash) {
    return staleFail(resolved, 'its bytes changed on disk');
  }
  return ok(undefined);
}

function staleFail(resolved: ResolvedPath, why: string): Result<never> {
  return fail(
    'stale',
    `${resolved.rel} changed since you last read or wrote it (${why}).`,
    `Read ${resolved.rel} again and base your change on its current content.`,
    { path: resolved.rel },
  );
}

/**
 * After a successful write of `bytes` to `realPath`: the session's observed version becomes the new bytes
 * (mtime from a fresh stat), so the session's next edit of the same file is not refused as stale.
 */
export async function recordWrite(ctx: ObservedScope, realPath: string, bytes: Uint8Array): Promise<void> {
  // The mtime is informational (freshness is judged on size and hash): a path that moved meanwhile records 0.
  const st = await fsp.lstat(realPath).catch(() => ({ mtimeMs: 0 }));
  ctx.observed.record(ctx.sessionId, realPath, stampOf(bytes, { size: bytes.length, mtimeMs: st.mtimeMs }));
}
