/**
 * Writing a plan as one transaction (DESIGN §3, bug B26): every target is written atomically (temp file, fsync,
 * rename — src/main/fs/atomic-write.ts), creations and updates first, deletions last, so a failure is most likely
 * to happen before anything is removed. If any step fails, the steps already done are undone in reverse order:
 * an updated file gets its original bytes and mode back, a created file is removed together with the folders
 * created for it, a deleted file is written again. On a failure the disk is then byte-identical to before; if
 * even the undo fails, the error says exactly which files could not be restored.
 *
 * The file operations go through `PatchIo` so a test can inject a fault at the N-th write.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../../shared/errors';
import { writeFileAtomic } from '../fs';

/** The two file operations a transaction performs. Both throw the fs error on failure. */
export interface PatchIo {
  write(absPath: string, bytes: Uint8Array, mode?: number): Promise<void>;
  remove(absPath: string): Promise<void>;
}

/** Real writes: atomic replace, plain unlink. */
export const diskIo: PatchIo = {
  write: (absPath, bytes, mode) => writeFileAtomic(absPath, bytes, mode === undefined ? {} : { mode }),
  remove: (absPath) => fsp.unlink(absPath),
};

/** One step: put `bytes` at `real` (null = remove it). `original` is what was there (null = nothing). */
export interface FileStep {
  real: string;
  /** Root-relative path, for messages. */
  rel: string;
  bytes: Uint8Array | null;
  mode?: number;
  original: { bytes: Uint8Array; mode: number } | null;
}

interface DoneStep {
  step: FileStep;
  createdDirs: string[];
}

/** Folders that do not exist yet between `real`'s parent and the first existing ancestor (deepest first). */
async function missingDirs(real: string): Promise<string[]> {
  const out: string[] = [];
  for (let dir = path.dirname(real); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      await fsp.lstat(dir);
      break;
    } catch {
      out.push(dir);
    }
  }
  return out;
}

async function undo(done: DoneStep, io: PatchIo): Promise<void> {
  const { step } = done;
  if (step.original) {
    await io.write(step.real, step.original.bytes, step.original.mode);
    return;
  }
  await io.remove(step.real);
  for (const dir of done.createdDirs) await fsp.rmdir(dir).catch(() => undefined);
}

/** Undo `done` in reverse order; returns the root-relative paths that could not be restored. */
async function rollback(done: DoneStep[], io: PatchIo): Promise<string[]> {
  const failed: string[] = [];
  for (const d of [...done].reverse()) {
    try {
      await undo(d, io);
    } catch {
      failed.push(d.step.rel);
    }
  }
  return failed;
}

/**
 * Perform `steps` as one transaction (caller holds the files' locks). Returns ok, or `io_error` whose data says
 * which step failed (`failed`), the fs error code, and `notRestored` (normally empty: nothing changed).
 */
export async function runTransaction(steps: readonly FileStep[], io: PatchIo = diskIo): Promise<Result<void>> {
  const ordered = [...steps.filter((s) => s.bytes !== null), ...steps.filter((s) => s.bytes === null)];
  const done: DoneStep[] = [];
  for (const step of ordered) {
    const createdDirs = step.bytes !== null && !step.original ? await missingDirs(step.real) : [];
    try {
      if (step.bytes === null) await io.remove(step.real);
      else await io.write(step.real, step.bytes, step.mode);
      done.push({ step, createdDirs });
    } catch (e) {
      const errno = (e as NodeJS.ErrnoException).code ?? 'unknown';
      // The failed step itself changed no file (atomic write / unlink), but may have created folders.
      for (const dir of createdDirs) await fsp.rmdir(dir).catch(() => undefined);
      const notRestored = await rollback(done, io);
      const outcome = notRestored.length === 0
        ? 'every file already written was restored: nothing changed'
        : `these files could NOT be restored and differ from before: ${notRestored.join(', ')}`;
      return fail('io_error', `Writing ${step.rel} failed (${errno}: ${(e as Error).message}); ${outcome}.`, notRestored.length === 0 ? `Fix the cause (permissions, disk space, a file where a folder is needed) and send the patch again.` : `Check ${notRestored.join(', ')} by hand before retrying.`, {
        failed: step.rel,
        errno,
        notRestored,
      });
    }
  }
  return ok(undefined);
}
