/**
 * Atomic file replacement (DESIGN §3): the new bytes go to a temp file in the SAME folder (so rename is atomic
 * on one filesystem), are fsync'd, the temp file gets the old file's mode (and owner, where the process may set
 * it: a rename replaces the inode, so both would otherwise be the writer's), and is renamed over the target;
 * then the folder is fsync'd so the rename itself survives a power cut. A crash at any point leaves the old file
 * or the new one, never a mix; on an error the temp file is removed. A symlink at the target is replaced (the
 * rename never follows it), a hard link is broken.
 *
 * This is for the app's OWN files (settings, saved keys in the data folder). Every write to the user's project
 * goes through the work-tree transaction (transaction.ts: pinned folders, journal, recovery) instead.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Prefix of temp files, so stale ones left by a killed process are recognisable. */
export const TEMP_MARKER = '.landfall-tmp-';

/** What an existing target passes on to its replacement: permission bits and owner (undefined for a new file). */
async function existingAttributes(absPath: string): Promise<{ mode: number; uid: number; gid: number } | undefined> {
  try {
    const st = await fsp.lstat(absPath);
    if (!st.isFile()) return undefined; // a link at the target is replaced, not copied from
    return { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  } catch {
    return undefined;
  }
}

/**
 * Write `bytes` to a new temp file beside `absPath` (missing parent folders created), with `mode` (default: the
 * existing target's mode, else 0o666 & ~umask) and the existing target's owner where permitted, fsync'd.
 * Returns the temp file's path; the caller renames it over `absPath` or removes it. Throws the fs error
 * (EACCES, ENOSPC, EEXIST for a file where a folder is needed…) after removing the temp file.
 */
async function writeTempBeside(absPath: string, bytes: Uint8Array, mode?: number): Promise<string> {
  const dir = path.dirname(absPath);
  await fsp.mkdir(dir, { recursive: true });
  const existing = await existingAttributes(absPath);
  const finalMode = mode ?? existing?.mode;
  const temp = path.join(
    dir,
    `.${path.basename(absPath)}${TEMP_MARKER}${process.pid}-${randomBytes(6).toString('hex')}`,
  );
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', finalMode ?? 0o666);
    await handle.writeFile(bytes);
    if (finalMode !== undefined) await handle.chmod(finalMode);
    // Only a privileged process may give a file away; for everyone else the new file is theirs, as before.
    if (existing) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    await handle.sync();
    await handle.close();
    handle = undefined;
    return temp;
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * Write `bytes` to `absPath` atomically. Creates missing parent folders. Keeps an existing file's mode (unless
 * `options.mode` is given; new files get 0o666 & ~umask) and, where permitted, its owner. Throws the fs error
 * (EACCES, ENOSPC…) after removing the temp file; the target is then untouched.
 */
export async function writeFileAtomic(
  absPath: string,
  bytes: Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const temp = await writeTempBeside(absPath, bytes, options.mode);
  try {
    await fsp.rename(temp, absPath);
  } catch (e) {
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(path.dirname(absPath));
}

/** fsync a folder so a rename in it is durable; never throws (not every platform can open a folder). */
export async function syncDir(dir: string): Promise<void> {
  let h: fsp.FileHandle | undefined;
  try {
    h = await fsp.open(dir, 'r');
    await h.sync();
  } catch {
    // Not supported on every platform/filesystem; the rename is still atomic, only its durability is weaker.
  } finally {
    await h?.close().catch(() => undefined);
  }
}
