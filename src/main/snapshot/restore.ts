/**
 * Applying snapshot content to the work tree, file by file, so one failing file never stops the others.
 *
 * restoreChanges: given the tree diff current → target, first deletes what the target lacks, then removes
 * folders that became empty, then writes what differs (a folder↔file switch needs the deletions first) — all one
 * journaled transaction (worktree-writer.ts), so a kill midway is rolled back on the next open.
 * revertFiles: for each file named by the patches, the earliest patch holding it names the tree to take it from
 * (fixtures/bugs/README.md B38: a file deleted or renamed later comes back; a file absent from that tree is deleted).
 * Both leave alone — and report as `kept` — every file the keep rule (keep.ts) protects: a file no snapshot
 * captured is never deleted or overwritten.
 */
import { relative, isAbsolute } from 'node:path';
import { isFailure } from '../../shared/errors';
import type { ObjectDb } from './git/object-db';
import type { TreeChange, TreeReader } from './git/tree-read';
import type { KeepRule } from './keep';
import type { KeptFile, PatchInfo, RestoreReport } from './types';
import type { TxProgress } from '../fs/tx-types';
import { WorktreeWriter } from './worktree-writer';

function reason(e: unknown): string {
  if (isFailure(e)) return e.error.message;
  return e instanceof Error ? e.message : String(e);
}

/** Applies `changes` (from the current tree to the target) to the work tree at `root` as one transaction. */
export async function restoreChanges(
  root: string,
  db: ObjectDb,
  changes: TreeChange[],
  target: { tree: string; journalDir: string; keep: KeepRule; progress?: TxProgress },
): Promise<RestoreReport> {
  const refused: RestoreReport['failed'] = [];
  const kept: KeptFile[] = [];
  const w = new WorktreeWriter(root, db, target.journalDir);
  for (const c of changes) {
    if (target.keep(c.path, target.tree, !c.after)) {
      kept.push({ path: c.path, reason: 'not_captured' });
      continue;
    }
    try {
      if (c.after) w.write(c.path, c.after.mode, c.after.oid);
      else w.remove(c.path);
    } catch (e) {
      refused.push({ path: c.path, reason: reason(e) });
    }
  }
  const done = await w.commit('restore', undefined, target.progress);
  return { restored: done.restored, deleted: done.deleted, failed: [...refused, ...done.failed], kept };
}

/** A patch's file as a worktree-relative path, or undefined when it points outside the work tree. */
function toRelative(root: string, file: string): string | undefined {
  const rel = isAbsolute(file) ? relative(root, file) : file.replace(/^\.\//, '');
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split('\\').join('/');
}

/** Restores the files of `patches` from their earliest patch's tree; absent there = deleted. One transaction. */
export async function revertFiles(
  root: string,
  db: ObjectDb,
  reader: TreeReader,
  patches: PatchInfo[],
  options: { journalDir: string; keep: KeepRule; intent?: string; progress?: TxProgress },
): Promise<RestoreReport> {
  const failed: RestoreReport['failed'] = [];
  const kept: KeptFile[] = [];
  const firstTree = new Map<string, string>();
  for (const p of patches) {
    for (const f of p.files) {
      const rel = toRelative(root, f);
      if (rel === undefined) {
        failed.push({ path: f, reason: 'outside the work tree' });
        continue;
      }
      if (!firstTree.has(rel)) firstTree.set(rel, p.hash);
    }
  }
  const w = new WorktreeWriter(root, db, options.journalDir);
  for (const [path, hash] of firstTree) {
    try {
      const e = reader.lookup(hash, path);
      // A folder at that path in the tree means the *file* was absent then: it is deleted like any absent file.
      const present = e !== undefined && e.mode !== '40000';
      if (options.keep(path, hash, !present)) kept.push({ path, reason: 'not_captured' });
      else if (present) w.write(path, e.mode, e.oid);
      else w.remove(path);
    } catch (e) {
      failed.push({ path, reason: reason(e) });
    }
  }
  const done = await w.commit('revert', options.intent, options.progress);
  return { restored: done.restored, deleted: done.deleted, failed: [...failed, ...done.failed], kept };
}
