/**
 * apply_patch's writes as one work-tree transaction (src/main/fs/transaction.ts, DESIGN §3, fixtures/bugs/README.md B26): every new
 * content staged beside its target first (fsync'd), then renamed into place, removals done, folders fsync'd — all
 * through pinned folders and journaled in the data folder. If any step fails, everything already done is put back
 * (the same rollback a recovery after a kill runs), so the disk is then byte-identical to before; if even that
 * fails, the error names exactly the files that could not be restored.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ok, type Result } from '../../../shared/errors';
import { writeProject } from '../../fs/project-write';
import type { TxHook, TxStep } from '../../fs/transaction';

/** One step: put `bytes` at `real` (null = remove it). `original` is what was there (null = nothing). */
export interface FileStep {
  real: string;
  /** Root-relative path (of the real file; of the link itself for a link removal), for messages. */
  rel: string;
  bytes: Uint8Array | null;
  mode?: number;
  original: { bytes: Uint8Array; mode: number } | null;
  /** For a removal of a symlink (not of the file it points to): the link's text; `real` is the link's own path. */
  link?: string;
}

/** Where the transaction runs: the real root, the journal folder (data folder), and a test hook for faults. */
export interface PatchWriteOptions {
  root: string;
  journalDir?: string;
  hook?: TxHook;
}

/** The root-relative path the transaction works on: the real file's, or for a link removal the link's own. */
function txPath(root: string, step: FileStep): string {
  if (step.link === undefined) return step.rel;
  const parent = realpathSync(path.dirname(step.real));
  return path
    .relative(root, path.join(parent, path.basename(step.real)))
    .split(path.sep)
    .join('/');
}

/**
 * Perform `steps` as one transaction (the caller holds the files' locks). Returns ok, or `io_error` /
 * `outside_root` whose data says which step failed (`failed`), the fs error code (`errno`) and `notRestored`
 * (normally empty).
 */
export async function runTransaction(steps: readonly FileStep[], options: PatchWriteOptions): Promise<Result<void>> {
  const tx: TxStep[] = steps.map((s) => ({
    rel: txPath(options.root, s),
    put:
      s.bytes === null
        ? { kind: 'delete' }
        : { kind: 'file', bytes: s.bytes, ...(s.mode === undefined ? {} : { perm: s.mode }) },
  }));
  const r = await writeProject(options.root, tx, {
    journalDir: options.journalDir,
    label: 'apply_patch',
    hook: options.hook,
  });
  return r.ok ? ok(undefined) : r;
}
