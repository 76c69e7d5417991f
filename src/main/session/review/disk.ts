/**
 * Disk side of review decisions, through the fs layer (DESIGN §3): paths resolved inside the project root, per-file
 * locks held from reading the current bytes to writing the new ones (so a tool edit cannot slip in between), atomic
 * writes. Several files land as one transaction: on a failure midway the files already written are put back.
 */
import { lstat, readFile, rm } from 'node:fs/promises';
import { fail, ok, type Result } from '../../../shared/errors';
import { resolveInRoot, type ResolvedPath } from '../../fs/workspace';
import { withFileLocks } from '../../fs/file-lock';
import { writeFileAtomic } from '../../fs/atomic-write';
import type { PlannedWrite } from './reject-plan';

/** Read access handed to a planner while the locks are held. */
export type Reader = (path: string) => Buffer | null;

async function readOrNull(abs: string): Promise<Buffer | null> {
  try {
    return await readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

async function putBytes(abs: string, bytes: Buffer | null): Promise<void> {
  if (bytes === null) await rm(abs, { force: true });
  else await writeFileAtomic(abs, bytes);
}

/**
 * Under the locks of `paths` (root-relative): read their current bytes, call `plan` with them, and write what it
 * returns. `plan` answers a failure (nothing written) or the writes plus a value passed back. Errors:
 * `outside_root` for a path leaving the root; `unavailable` for a symbolic link; `io_error` when a write fails
 * (earlier writes are restored).
 */
export async function lockedUpdate<T>(
  root: string,
  paths: readonly string[],
  plan: (read: Reader) => Result<{ writes: PlannedWrite[]; value: T }>,
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
      for (const [p, r] of resolved) current.set(p, await readOrNull(r.abs));
      const planned = plan((p) => {
        if (!current.has(p)) throw new Error(`review planner read ${p} without locking it`);
        return current.get(p) ?? null;
      });
      if (!planned.ok) return planned;
      const done: PlannedWrite[] = [];
      try {
        for (const w of planned.value.writes) {
          const r = resolved.get(w.path);
          if (!r) throw new Error(`review planner wrote ${w.path} without locking it`);
          await putBytes(r.abs, w.bytes);
          done.push(w);
        }
      } catch (e) {
        for (const w of done.reverse())
          await putBytes((resolved.get(w.path) as ResolvedPath).abs, current.get(w.path) ?? null).catch(
            () => undefined,
          );
        return fail(
          'io_error',
          `Writing the review decision failed: ${(e as Error).message}`,
          'Check the file permissions and try again; nothing was changed.',
        );
      }
      return ok({ ...planned.value, previous: current });
    },
  );
}
