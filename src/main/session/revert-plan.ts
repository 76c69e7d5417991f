/**
 * The per-file plan every history operation (revert, revert again, undo, redo, unrevert) runs through, so that a
 * preview is the same computation as the real run minus the writes (it cannot disagree with it).
 *
 * Algorithm: for each file the operation covers, read three versions — the bytes on disk NOW (the tree `track()`
 * just took), the wanted bytes (the file in the tree the operation restores; absent there → delete), and the
 * bytes Landfall last left there (the `clean` trees: the end of the agent's last step that wrote it, or the tree
 * the revert in place wrote it from). Then:
 *   disk == wanted            → nothing to do (not listed);
 *   no snapshot captured it   → kept, always (even with `force`), listed as conflict `not_captured`: a file that
 *                               existed but was ignored (or over the size limit) has its bytes in no snapshot, so
 *                               deleting or overwriting it could not be undone (snapshot/keep.ts);
 *   disk ∉ clean              → someone else changed it since Landfall last wrote it: a conflict, skipped and kept
 *                               unless `force` (then written, still listed as a conflict);
 *   otherwise                 → restored (wanted present) or deleted (wanted absent).
 * The remembered tree is never trusted as "the disk": a user edit made while reverted is seen (trial bug: repeated
 * undo silently replaced USER WORK with the remembered bytes). Rule source: DESIGN §5 (fixtures/bugs/README.md B31).
 */
import type { RevertConflict } from '../../shared/history-schemas';
import type { PatchInfo, SnapshotPort } from './snapshot-port';

/** One file an operation may write. */
export interface FileIntent {
  /** Worktree-relative POSIX path. */
  path: string;
  /** Tree hash whose version of the file is wanted; absent there → the file is deleted. */
  want: string;
  /** Tree hashes whose version means "Landfall left it so"; undefined → unknown, never a conflict. */
  clean?: string[];
  /** Reported when the disk holds other bytes. */
  reason: RevertConflict['reason'];
}

/** What an operation does (or, for a preview, would do) per file; `writes` feeds SnapshotPort.revert. */
export interface FilePlan {
  restored: string[];
  deleted: string[];
  skipped: string[];
  conflicts: RevertConflict[];
  writes: PatchInfo[];
}

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

/**
 * Whether the disk holds a version Landfall left there. Every clean tree is read even when the answer is
 * already known, so a tree the store does not hold (an imported session) always fails the same way
 * (LandfallFailure `not_found`), whatever the disk holds.
 */
async function isClean(snap: SnapshotPort, intent: FileIntent, disk: Uint8Array | undefined): Promise<boolean> {
  if (intent.clean === undefined) return true;
  const versions = [];
  for (const tree of intent.clean) versions.push(await snap.readFile(tree, intent.path));
  return versions.some((v) => same(disk, v));
}

/**
 * Decide per file against the disk as tree `nowTree` (taken by `track()` right before). Pure: writes nothing.
 * Files are listed in `intents` order; `force` writes conflicted files too. `planned` hears each file decided
 * (done, total).
 */
export async function planFiles(
  snap: SnapshotPort,
  nowTree: string,
  intents: FileIntent[],
  force: boolean,
  planned?: (done: number, total: number) => void,
): Promise<FilePlan> {
  const plan: FilePlan = { restored: [], deleted: [], skipped: [], conflicts: [], writes: [] };
  const changing: { intent: FileIntent; wanted: Uint8Array | undefined; clean: boolean; unchanged: boolean }[] = [];
  for (const [i, intent] of intents.entries()) {
    const disk = await snap.readFile(nowTree, intent.path);
    const wanted = await snap.readFile(intent.want, intent.path);
    const clean = await isClean(snap, intent, disk);
    const unchanged = same(disk, wanted);
    // Absent from the tree just taken need not mean absent from the disk: such a file is asked about too.
    if (!unchanged || disk === undefined) changing.push({ intent, wanted, clean, unchanged });
    planned?.(i + 1, intents.length);
  }
  // A file no snapshot captured is never deleted or overwritten, not even with force: its bytes exist nowhere else.
  const untouchable = new Set(
    await snap.notCaptured(changing.map((c) => ({ path: c.intent.path, tree: c.intent.want }))),
  );
  const byTree = new Map<string, string[]>();
  for (const { intent, wanted, clean, unchanged } of changing) {
    if (untouchable.has(intent.path)) {
      plan.conflicts.push({ path: intent.path, reason: 'not_captured' });
      plan.skipped.push(intent.path);
      continue;
    }
    if (unchanged) continue;
    if (!clean) {
      plan.conflicts.push({ path: intent.path, reason: intent.reason });
      if (!force) {
        plan.skipped.push(intent.path);
        continue;
      }
    }
    (wanted === undefined ? plan.deleted : plan.restored).push(intent.path);
    const files = byTree.get(intent.want) ?? [];
    files.push(intent.path);
    byTree.set(intent.want, files);
  }
  plan.writes = [...byTree].map(([hash, files]) => ({ hash, files }));
  return plan;
}

/**
 * Carry out a plan. A file the snapshot store could not write (its `failed` list) moves to `skipped`, so the
 * result never claims a change that did not happen. `intent`: the id of the record that follows (intents.ts).
 * Throws what SnapshotPort.revert throws.
 */
export async function applyPlan(snap: SnapshotPort, plan: FilePlan, intent?: string): Promise<FilePlan> {
  if (plan.writes.length === 0) return plan;
  const report = await snap.revert(plan.writes, intent !== undefined ? { intent } : {});
  const kept = report.kept.map((k) => k.path);
  const failed = new Set([...report.failed.map((f) => f.path), ...kept]);
  if (failed.size === 0) return plan;
  return {
    ...plan,
    restored: plan.restored.filter((f) => !failed.has(f)),
    deleted: plan.deleted.filter((f) => !failed.has(f)),
    skipped: [...plan.skipped, ...[...failed].filter((f) => !plan.skipped.includes(f))],
    conflicts: [
      ...plan.conflicts,
      ...kept
        .filter((f) => !plan.conflicts.some((c) => c.path === f))
        .map((path) => ({ path, reason: 'not_captured' as const })),
    ],
  };
}
