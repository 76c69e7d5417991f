/**
 * Atomic file replacement (DESIGN §3): the new bytes go to a temp file in the SAME folder (so rename is atomic
 * on one filesystem), are fsync'd, the temp file gets the old file's mode, and is renamed over the target; then
 * the folder is fsync'd so the rename itself survives a power cut. A crash at any point leaves the old file or
 * the new one, never a mix; on an error the temp file is removed. The target path is written as given: callers
 * pass the real path they checked against the workspace boundary.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Prefix of temp files, so stale ones left by a killed process are recognisable. */
export const TEMP_MARKER = '.landfall-tmp-';

/**
 * Write `bytes` to `absPath` atomically. Creates missing parent folders. Keeps an existing file's mode (unless
 * `options.mode` is given; new files get 0o666 & ~umask). Throws the fs error (EACCES, ENOSPC…) after removing
 * the temp file; the target is then untouched.
 */
export async function writeFileAtomic(absPath: string, bytes: Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const dir = path.dirname(absPath);
  await fsp.mkdir(dir, { recursive: true });
  let mode = options.mode;
  if (mode === undefined) {
    try {
      mode = (await fsp.stat(absPath)).mode & 0o7777;
    } catch {
      mode = undefined;
    }
  }
  const temp = path.join(dir, `.${path.basename(absPath)}${TEMP_MARKER}${process.pid}-${randomBytes(6).toString('hex')}`);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', mode ?? 0o666);
    await handle.writeFile(bytes);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fsp.rename(temp, absPath);
  } catch (e) {
    if (handle) await handle.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(dir);
}

/** fsync a folder so a rename in it is durable; ignored where folders cannot be opened (Windows). */
async function syncDir(dir: string): Promise<void> {
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
