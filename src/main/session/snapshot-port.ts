/**
 * The part of the shadow snapshot store (src/main/snapshot, DESIGN §4) that sessions and the loop use. Kept as an
 * interface so the session layer states exactly what it relies on; `openSnapshots` (agent/project.ts) binds it to
 * the real SnapshotStore.
 */
import type { PatchInfo, RestoreReport } from '../snapshot/types';

export type { PatchInfo, RestoreReport };

export interface SnapshotPort {
  /** Stage the work tree and return its tree hash. */
  track(): Promise<string>;
  /** Files that differ between tree `hash` and the work tree now. */
  patch(hash: string): Promise<PatchInfo>;
  /** Unified diff from tree `hash` to the work tree now. */
  diff(hash: string): Promise<string>;
  /** Put the given files back as they are in their patch's tree; earliest patch per file wins; absent → deleted. */
  revert(patches: PatchInfo[]): Promise<RestoreReport>;
  /** Bytes of `path` in tree `hash`, or undefined when the tree does not have it. */
  readFile(hash: string, path: string): Promise<Uint8Array | undefined>;
  /**
   * Which of `items` (a path and the tree whose version is wanted; absent there = removal) a revert must leave
   * alone because no snapshot captured the file on disk (src/main/snapshot/keep.ts). `revert` applies the same rule.
   */
  notCaptured(items: { path: string; tree: string }[]): Promise<string[]>;
}
