/**
 * Writes snapshot content back into the work tree — restore and revert only ever write through here, and here
 * only through the work-tree transaction (src/main/fs/transaction.ts): temp file beside the target and rename
 * (never an in-place write, so a kill leaves the old or the new file and a hard link to a file outside the
 * project is broken, not written through), every folder pinned by descriptor (a folder swapped for an outward
 * symlink mid-restore cannot redirect a write), the whole set journaled in the data folder (a kill is rolled back
 * on the next open). Safety rules (fixtures/bugs/README.md B35): a path is refused when a component is empty, `.`, `..` or `.git` (the
 * user's and nested repositories' git data is never written); a symlinked folder on the way is refused, never
 * followed; a symlink at the final name is replaced, never its target. Contents equal to what is on disk are not
 * rewritten (mtimes stay, editors do not reload). Folders emptied by deletions are removed afterwards; an empty
 * folder where the snapshot has a file gives way, a non-empty one does not. One failing file never stops the
 * others: it is reported.
 */
import { LandfallFailure } from '../../shared/errors';
import { runTransactionAsync, type TxFailure, type TxStep } from '../fs/transaction';
import type { TxProgress } from '../fs/tx-types';
import type { ObjectDb } from './git/object-db';
import type { EntryMode } from './git/tree';
import type { FailedFile } from './types';

/** A failure to write one path: becomes a `failed` row of the report. */
function refuse(path: string, reason: string): never {
  throw new LandfallFailure({
    code: 'io_error',
    message: reason,
    hint: 'fix the path by hand, then revert again',
    data: { path },
  });
}

/** The report row for a failed transaction step, in the words restore has always used. */
function failedRow(f: TxFailure): FailedFile {
  if (f.code === 'ELINK')
    return { path: f.rel, reason: `not written: parent ${f.at} is a symlink (restore never writes through links)` };
  if (f.code === 'ENOTDIR' && f.at !== undefined)
    return { path: f.rel, reason: `not written: ${f.at} is a file where the snapshot has a folder` };
  if (f.code === 'ENOTEMPTY' || f.code === 'EEXIST' || f.code === 'EISDIR')
    return { path: f.rel, reason: `not written: ${f.rel} is a non-empty folder on disk` };
  return { path: f.rel, reason: f.message };
}

/** What one restore or revert wrote (`restored`), removed (`deleted`) and could not do (`failed`). */
export interface WriterReport {
  restored: string[];
  deleted: string[];
  failed: FailedFile[];
}

/** Collects the writes and deletions of one restore or revert, then runs them as one journaled transaction. */
export class WorktreeWriter {
  private readonly steps: TxStep[] = [];

  constructor(
    private readonly root: string,
    private readonly db: ObjectDb,
    private readonly journalDir: string,
  ) {}

  /** Throws unless `path` is a clean relative path outside any `.git`. */
  static check(path: string): void {
    const parts = path.split('/');
    for (const p of parts) {
      if (p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git' || p.includes('\0')) {
        refuse(path, `refused path ${JSON.stringify(path)}: empty, relative, or inside a .git folder`);
      }
    }
  }

  private blob(path: string, oid: string): Buffer {
    const obj = this.db.read(oid);
    if (!obj) refuse(path, `the store lacks blob ${oid} (removed by gc?)`);
    return obj.content;
  }

  /** The reader every file step shares (tx-types.ts `Put`): the blob's bytes, read when its temp is written. */
  private readonly read = (oid: string): Buffer => {
    const obj = this.db.read(oid);
    if (!obj)
      throw new LandfallFailure({
        code: 'io_error',
        message: `the store lacks blob ${oid} (removed by gc?)`,
        hint: 'fix the path by hand, then revert again',
      });
    return obj.content;
  };

  /** Queue blob `oid` at `path` with `mode` (file, executable, or symlink). Throws LandfallFailure for a bad path. */
  write(path: string, mode: EntryMode, oid: string): void {
    WorktreeWriter.check(path);
    if (!this.db.has(oid)) refuse(path, `the store lacks blob ${oid} (removed by gc?)`);
    if (mode === '120000') {
      this.steps.push({
        rel: path,
        put: { kind: 'link', target: this.blob(path, oid).toString('utf8'), skipSame: true },
      });
      return;
    }
    this.steps.push({
      rel: path,
      put: { kind: 'file', bytes: this.read, oid, exec: mode === '100755', skipSame: true },
    });
  }

  /** Queue the removal of the file or link at `path` (never a folder, never through a link). */
  remove(path: string): void {
    WorktreeWriter.check(path);
    this.steps.push({ rel: path, put: { kind: 'delete' } });
  }

  /**
   * Run everything queued (removals, then emptied folders, then writes); `label` names it for a recovery report,
   * `intent` is the caller's record that follows it; `progress` hears each step prepared and written
   * (fs/tx-types.ts).
   */
  async commit(label: string, intent?: string, progress?: TxProgress): Promise<WriterReport> {
    const r = await runTransactionAsync(this.steps, {
      root: this.root,
      journalDir: this.journalDir,
      label,
      atomic: false,
      sync: 'replaced',
      prune: true,
      replaceEmptyDirs: true,
      ...(intent !== undefined ? { intent } : {}),
      ...(progress ? { progress } : {}),
    });
    return { restored: r.written, deleted: r.removed, failed: r.failed.map(failedRow) };
  }
}
