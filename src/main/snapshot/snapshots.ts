/**
 * `Snapshots`: the one interface of the shadow snapshot store (DESIGN §4). `SnapshotStore` (store.ts, in the
 * calling thread) and `SnapshotWorker` (worker-client.ts, the same calls answered by a worker thread) implement
 * it; the session layer (session/snapshot-port.ts), review, and the agent loop (and its timed wrapper) hold a
 * `Snapshots` and nothing else, so a call they need is declared here once, and no caller reaches past it.
 *
 * `SNAPSHOT_CALLS` is the allow-list of call names derived from the interface (the compiler refuses a list that
 * misses a call or names one the interface lacks); the worker thread dispatches only those names, and answers any
 * other — a private method of the store, `constructor`, `__proto__`, a property — with `unknown_call`.
 *
 * Paths are worktree-relative with '/' separators; a tree hash is a 40-hex git tree id equal to native git's.
 * Expected failures reject with LandfallFailure: `not_found` (a tree this store does not hold), `invalid_input`
 * (a malformed hash or option), `busy` (the store's lock timed out), `unavailable` (after close).
 */
import type { FileDiff } from '../../shared/model';
import type { ChangedPath, TreeFile } from './git/tree-read';
import type { GcOptions, GcReport, PatchInfo, RestoreReport, TrackOptions } from './types';

/** The calls of a shadow snapshot store of one work tree. */
export interface Snapshots {
  /**
   * Stages the work tree and answers its tree hash; no commit, no ref. One walk with the stat cache, or with a
   * watcher only the paths it reported (watch.ts); `verify` walks the whole tree (a turn's first track).
   */
  track(options?: TrackOptions): Promise<string>;
  /** Files that differ between tree `hash` and the work tree now (walks the work tree). */
  patch(hash: string): Promise<PatchInfo>;
  /** Unified diff text (git style, a/ b/ prefixes) from tree `hash` to the work tree now; '' when equal. */
  diff(hash: string): Promise<string>;
  /** Per-file diffs from tree `from` to tree `to`: status, before/after text (or binary / tooLarge), line counts. */
  diffFull(from: string, to: string): Promise<FileDiff[]>;
  /**
   * Paths whose entry differs from tree `from` to tree `to`, with their status, in git's tree order: a tree-to-tree
   * comparison of entries (equal subtrees skipped, no blob read, no work-tree walk), so its cost follows the size
   * of the change. A folder↔file switch at one name lists the folder's files as deleted (or added) and the file.
   */
  changed(from: string, to: string): Promise<ChangedPath[]>;
  /** Makes the work tree equal tree `hash` (ignored and never-captured files untouched); writes only what differs. */
  restore(hash: string): Promise<RestoreReport>;
  /**
   * Puts back only the files of `patches`: the earliest patch per file wins; absent from its tree = deleted.
   * `intent`: the id of the record the caller writes once this committed (fs/tx-types.ts `TxOptions.intent`).
   */
  revert(patches: PatchInfo[], options?: { intent?: string }): Promise<RestoreReport>;
  /**
   * Which of `items` (a path and the tree whose version is wanted; absent there = removal) a revert must leave
   * alone because no snapshot captured the file on disk (keep.ts). `revert` applies the same rule.
   */
  notCaptured(items: { path: string; tree: string }[]): Promise<string[]>;
  /** Every file of tree `hash` with mode and blob id, in tree order. */
  listFiles(hash: string): Promise<TreeFile[]>;
  /** Bytes of `path` in tree `hash` (a link's target text; a copy the caller owns), or undefined when absent. */
  readFile(hash: string, path: string): Promise<Uint8Array | undefined>;
  /** Removes objects unreachable from `options.keep` (and the last track) that are older than the retention. */
  gc(options: GcOptions): Promise<GcReport>;
  /** Waits for running calls, then releases the store; later calls reject with `unavailable`. */
  close(): Promise<void>;
}

/** The name of a call of `Snapshots`. */
export type SnapshotCall = keyof Snapshots;

/**
 * The allow-list of call names, one per member of `Snapshots`. Typed as a mapped type over the interface, so a
 * call added to the interface and not here (or listed here and not in the interface) does not compile.
 */
export const SNAPSHOT_CALLS: { readonly [K in SnapshotCall]: true } = {
  track: true,
  patch: true,
  diff: true,
  diffFull: true,
  changed: true,
  restore: true,
  revert: true,
  notCaptured: true,
  listFiles: true,
  readFile: true,
  gc: true,
  close: true,
};

/** True when `name` is a call of `Snapshots` (own keys of the allow-list only: never `constructor` or `toString`). */
export function isSnapshotCall(name: unknown): name is SnapshotCall {
  return typeof name === 'string' && Object.hasOwn(SNAPSHOT_CALLS, name);
}
