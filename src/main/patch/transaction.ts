/**
 * Writing a plan as one transaction (DESIGN §3, bug B26). Phases (disk-io.ts):
 *   1. stage every new content into a temp file beside its target (fsync'd) — a few at a time; a failure here
 *      has changed no target: the temp files and any folders created for them are removed;
 *   2. commit: rename each temp file over its target, in patch order;
 *   3. remove deleted files and move sources;
 *   4. fsync the touched folders once.
 * If a step of phase 2 or 3 fails, the steps already done are undone in reverse order: an updated file gets its
 * original bytes and mode back (staged and renamed like any write), a created file is removed together with the
 * folders created for it, a removed file is written again. On a failure the disk is then byte-identical to
 * before; if even the undo fails, the error names exactly the files that could not be restored.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../../shared/errors';
import { diskIo, type PatchIo } from './disk-io';

/** One step: put `bytes` at `real` (null = remove it). `original` is what was there (null = nothing). */
export interface FileStep {
  real: string;
  /** Root-relative path, for messages. */
  rel: string;
  bytes: Uint8Array | null;
  mode?: number;
  original: { bytes: Uint8Array; mode: number } | null;
  /** For a removal of a symlink (not of the file it points to): the link's text, to recreate it on undo. */
  link?: string;
}

/** How many files are staged at once (fsyncs overlap; the disk's queue does the rest). */
const STAGE_CONCURRENCY = 16;

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

async function removeDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) await fsp.rmdir(dir).catch(() => undefined);
}

interface Staged {
  step: FileStep;
  temp?: string;
  createdDirs: string[];
}

/** Phase 1. Returns the staged writes, or the error after cleaning up every temp file and created folder. */
async function stageAll(
  writes: readonly FileStep[],
  io: PatchIo,
): Promise<{ staged: Staged[]; error?: { step: FileStep; cause: unknown } }> {
  const staged: Staged[] = [];
  for (const step of writes) staged.push({ step, createdDirs: step.original ? [] : await missingDirs(step.real) });
  let error: { step: FileStep; cause: unknown } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!error && next < staged.length) {
      const s = staged[next++] as Staged;
      try {
        s.temp = await io.stage(s.step.real, s.step.bytes as Uint8Array, s.step.mode);
      } catch (cause) {
        error ??= { step: s.step, cause };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAGE_CONCURRENCY, staged.length) }, worker));
  if (error) await discardAll(staged, io);
  return error ? { staged, error } : { staged };
}

async function discardAll(staged: readonly Staged[], io: PatchIo): Promise<void> {
  for (const s of staged) if (s.temp) await io.discard(s.temp);
  for (const s of [...staged].reverse()) await removeDirs(s.createdDirs);
}

/** Undo one done step. */
async function undo(s: Staged, io: PatchIo): Promise<void> {
  const { step } = s;
  if (step.link !== undefined) {
    await fsp.symlink(step.link, step.real);
    return;
  }
  if (step.original) {
    await io.commit(await io.stage(step.real, step.original.bytes, step.original.mode), step.real);
    return;
  }
  await io.remove(step.real).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await removeDirs(s.createdDirs);
}

/** Undo `done` in reverse order; returns the root-relative paths that could not be restored. */
async function rollback(done: readonly Staged[], io: PatchIo): Promise<string[]> {
  const failed: string[] = [];
  for (const s of [...done].reverse()) {
    try {
      await undo(s, io);
    } catch {
      failed.push(s.step.rel);
    }
  }
  return failed;
}

function ioFailure(step: FileStep, cause: unknown, notRestored: string[]): Result<never> {
  const errno = (cause as NodeJS.ErrnoException).code ?? 'unknown';
  const outcome =
    notRestored.length === 0
      ? 'nothing was changed (files already written were restored)'
      : `these files could NOT be restored and differ from before: ${notRestored.join(', ')}`;
  const hint =
    notRestored.length === 0
      ? 'Fix the cause (permissions, disk space, a file where a folder is needed) and send the patch again.'
      : `Check ${notRestored.join(', ')} by hand before retrying.`;
  return fail('io_error', `Writing ${step.rel} failed (${errno}: ${(cause as Error).message}); ${outcome}.`, hint, {
    failed: step.rel,
    errno,
    notRestored,
  });
}

/**
 * Perform `steps` as one transaction (the caller holds the files' locks). Returns ok, or `io_error` whose data
 * says which step failed (`failed`), the fs error code (`errno`) and `notRestored` (normally empty).
 */
export async function runTransaction(steps: readonly FileStep[], io: PatchIo = diskIo): Promise<Result<void>> {
  const { staged, error } = await stageAll(
    steps.filter((s) => s.bytes !== null),
    io,
  );
  if (error) return ioFailure(error.step, error.cause, []);
  const done: Staged[] = [];
  for (const s of staged) {
    try {
      await io.commit(s.temp as string, s.step.real);
      done.push(s);
    } catch (cause) {
      await discardAll(staged.slice(done.length), io);
      return ioFailure(s.step, cause, await rollback(done, io));
    }
  }
  for (const step of steps.filter((s) => s.bytes === null)) {
    try {
      await io.remove(step.real);
      done.push({ step, createdDirs: [] });
    } catch (cause) {
      return ioFailure(step, cause, await rollback(done, io));
    }
  }
  await io.syncDirs(steps.map((s) => path.dirname(s.real)));
  return ok(undefined);
}
