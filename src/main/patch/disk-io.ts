/**
 * The file operations of a patch transaction, split so a multi-file patch pays for durability once per phase
 * rather than once per file: every new content is first STAGED (temp file in the target's folder, written,
 * mode set, fsync'd), then each temp file is COMMITTED by a rename over its target (atomic: a reader sees the
 * old file or the new one, never a mix), and the touched folders are fsync'd once at the end so the renames
 * survive a power cut. Staging changes no target, so most failures (disk full, permissions, a file where a
 * folder is needed) happen before the disk changes at all. Temp files carry src/main/fs's TEMP_MARKER so a
 * stale one left by a killed process is recognisable. (src/main/fs/atomic-write.ts does the same per file, with
 * a folder fsync after every rename — 500 files would cost 1,000 fsyncs.)
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { TEMP_MARKER } from '../fs';

/** The transaction's file operations; each throws the fs error. Tests inject faults by wrapping `diskIo`. */
export interface PatchIo {
  /** Write `bytes` to a new temp file beside `absPath` (parent folders created), set `mode`, fsync. Returns its path. */
  stage(absPath: string, bytes: Uint8Array, mode?: number): Promise<string>;
  /** Rename the staged `tempPath` over `absPath`. */
  commit(tempPath: string, absPath: string): Promise<void>;
  /** Remove the file `absPath`. */
  remove(absPath: string): Promise<void>;
  /** Remove a staged temp file that will not be committed (never throws). */
  discard(tempPath: string): Promise<void>;
  /** fsync these folders (never throws: not every platform can open a folder). */
  syncDirs(dirs: string[]): Promise<void>;
}

async function stage(absPath: string, bytes: Uint8Array, mode?: number): Promise<string> {
  const dir = path.dirname(absPath);
  await fsp.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(absPath)}${TEMP_MARKER}${process.pid}-${randomBytes(6).toString('hex')}`);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', mode ?? 0o666);
    await handle.writeFile(bytes);
    if (mode !== undefined) await handle.chmod(mode);
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

async function syncDirs(dirs: string[]): Promise<void> {
  for (const dir of new Set(dirs)) {
    let h: fsp.FileHandle | undefined;
    try {
      h = await fsp.open(dir, 'r');
      await h.sync();
    } catch {
      // Durability of the rename is weaker where folders cannot be fsync'd; atomicity is not affected.
    } finally {
      await h?.close().catch(() => undefined);
    }
  }
}

/** The real disk. */
export const diskIo: PatchIo = {
  stage,
  commit: (tempPath, absPath) => fsp.rename(tempPath, absPath),
  remove: (absPath) => fsp.unlink(absPath),
  discard: (tempPath) => fsp.rm(tempPath, { force: true }).catch(() => undefined),
  syncDirs,
};
