/**
 * Disk side of review decisions, through the fs layer (DESIGN §3): paths resolved inside the project root, per-file
 * locks held from reading the current bytes to writing the new ones (so a tool edit cannot slip in between), reads
 * checked and bounded (src/main/fs/read-checked.ts), and every change — several files at once — one journaled
 * work-tree transaction (src/main/fs/transaction.ts): all or nothing, put back on a failure, rolled back after a
 * kill on the next start.
 */
import { lstat } from 'node:fs/promises';
import { fail, ok, type Result } from '../../../shared/errors';
import { writeProject } from '../../fs/project-write';
import { readChecked } from '../../fs/read-checked';
import { DEFAULT_MAX_BYTES } from '../../fs/text-file';
import { realRoot, resolveInRoot, type ResolvedPath } from '../../fs/workspace';
import { withFileLocks } from '../../fs/file-lock';
import type { PlannedWrite } from './reject-plan';

/** Read access handed to a planner while the locks are held. */
export type Reader = (path: string) => Buffer | null;

/** The bytes at `real` (null when absent); a failure to read it (moved, too large, unreadable) as an error. */
async function readOrNull(r: ResolvedPath): Promise<Result<Buffer | null>> {
  const read = await readChecked(r.real, DEFAULT_MAX_BYTES);
  if (read.ok) return ok(read.bytes);
  if (read.why === 'missing') return ok(null);
  if (read.why === 'moved')
    return fail(
      'outside_root',
      `${r.rel} no longer leads to the file that was checked (a folder on its path was replaced); nothing was written.`,
      'Check what changed on the path, then decide again.',
      { path: r.rel },
    );
  return fail(
    'io_error',
    `${r.rel} cannot be read for the review decision (${read.why}${read.errno ? `, ${read.errno}` : ''}); nothing was written.`,
    'Check the file, then decide again.',
    { path: r.rel },
  );
}

/**
 * Under the locks of `paths` (root-relative): read their current bytes, call `plan` with them, and write what it
 * returns. `plan` answers a failure (nothing written) or the writes plus a value passed back. `intentFor`, called
 * with the planned writes and the bytes they replace right before the write, may answer the id of the record that
 * follows it (session/intents.ts), which names the transaction. Errors:
 * `outside_root` for a path leaving the root; `unavailable` for a symbolic link; `io_error` when a write fails
 * (earlier writes are restored).
 */
export async function lockedUpdate<T>(
  root: string,
  paths: readonly string[],
  plan: (read: Reader) => Result<{ writes: PlannedWrite[]; value: T }>,
  journalDir?: string,
  intentFor?: (writes: PlannedWrite[], previous: Map<string, Buffer | null>) => string | undefined,
): Promise<Result<{ writes: PlannedWrite[]; value: T; previous: Map<string, Buffer | null> }>> {
  const resolved = new Map<string, ResolvedPath>();
  for (const p of new Set(paths)) {
    const r = await resolveInRoot(root, p);
    if (!r.ok) return r;
    // A symlink's snapshot bytes are its target text: writing them would replace the link with a file.
    if (
      await lstat(r.value.abs).then(
        (st) => st.isSymbolicLink(),
        () => false,
      )
    ) {
      return fail(
        'unavailable',
        `${p} is a symbolic link; review decisions do not rewrite links.`,
        'Change the link by hand (ln -sf), or review the file it points to.',
      );
    }
    resolved.set(p, r.value);
  }
  return withFileLocks(
    [...resolved.values()].map((r) => r.real),
    async () => {
      const current = new Map<string, Buffer | null>();
      for (const [p, r] of resolved) {
        const bytes = await readOrNull(r);
        if (!bytes.ok) return bytes;
        current.set(p, bytes.value);
      }
      const planned = plan((p) => {
        if (!current.has(p)) throw new Error(`review planner read ${p} without locking it`);
        return current.get(p) ?? null;
      });
      if (!planned.ok) return planned;
      const steps = planned.value.writes.map((w) => {
        const r = resolved.get(w.path);
        if (!r) throw new Error(`review planner wrote ${w.path} without locking it`);
        return {
          rel: r.rel,
          put: w.bytes === null ? { kind: 'delete' as const } : { kind: 'file' as const, bytes: w.bytes },
        };
      });
      const intent = intentFor?.(planned.value.writes, current);
      const wrote = await writeProject(await realRoot(root), steps, {
        journalDir,
        label: 'review',
        ...(intent !== undefined ? { intent } : {}),
      });
      if (!wrote.ok)
        return fail(
          wrote.error.code,
          `Writing the review decision failed: ${wrote.error.message}`,
          wrote.error.hint,
          wrote.error.data,
        );
      return ok({ ...planned.value, previous: current });
    },
  );
}
