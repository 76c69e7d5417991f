/**
 * The file operations of a patch transaction, split so a multi-file patch pays for durability once per phase
 * rather than once per file: every new content is first STAGED (temp file in the target's folder, written,
 * mode set, fsync'd), then each temp file is COMMITTED by a rename over its target (atomic: a reader sees the
 * old file or the new one, never a mix), and the touched folders are fsync'd once at the end so the renames
 * survive a power cut. Staging changes no target, so most failures (disk full, permissions, a file where a
 * folder is needed) happen before the disk changes at all. Staging and folder syncs are src/main/fs's own
 * (atomic-write.ts: same temp naming, mode and owner kept), only ordered differently: writeFileAtomic syncs the
 * folder after every rename — 500 files would cost 1,000 fsyncs.
 */
import { promises as fsp } from 'node:fs';
import { syncDir, writeTempBeside } from '../fs';

/** The transaction's file operations; each throws the fs error. Tests inject faults by wrapping `diskIo`. */
export interface PatchIo {
  /** Write `bytes` to a new temp file beside `absPath` (parent folders created; mode, else the target's, and owner kept), fsync. Returns its path. */
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

/** The real disk. */
export const diskIo: PatchIo = {
  stage: writeTempBeside,
  commit: (tempPath, absPath) => fsp.rename(tempPath, absPath),
  remove: (absPath) => fsp.unlink(absPath),
  discard: (tempPath) => fsp.rm(tempPath, { force: true }).catch(() => undefined),
  syncDirs: async (dirs) => {
    for (const dir of new Set(dirs)) await syncDir(dir);
  },
};
