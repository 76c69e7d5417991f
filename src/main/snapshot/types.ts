/**
 * Shapes of the shadow snapshot store's public API (DESIGN §4; the calls are `Snapshots`, snapshots.ts; tree
 * listings and tree changes are git/tree-read.ts). Paths in results are worktree-relative, POSIX-separated
 * (`src/a.ts`); a tree hash is a 40-hex git tree id equal to native git's for the same content.
 */
import type { WatchBackend } from './watch-types';

import type { ProgressSink } from './progress';

/** Options of `SnapshotStore.open`. */
export interface SnapshotOptions {
  /** The user's project folder (absolute or relative to cwd). Only read by track; written only by restore/revert. */
  worktree: string;
  /** The app's data folder; the store lives at `<dataDir>/snapshot/<projectId>/<sha1(worktree realpath)[0..16]>`. */
  dataDir: string;
  /** Untracked files larger than this (bytes) are skipped and reported. Default 2 MiB. */
  maxFileBytes?: number;
  /** Groups stores per project; default `default`. Must be a plain name (letters, digits, `._-`). */
  projectId?: string;
  /**
   * Ignore rules used for plain folders (not git projects), in .gitignore syntax, lowest precedence.
   * Default `DEFAULT_IGNORES`; pass `[]` to snapshot everything.
   */
  ignoreDefaults?: readonly string[];
  /** Where skipped-file notices go (never silent). Default console.warn. Not passed to a worker thread. */
  log?: (line: string) => void;
  /**
   * Where progress of long operations goes (progress.ts: first track and full walks, restore, revert, gc; throttled,
   * always ended). Default: nowhere. Not passed to a worker thread: the worker client calls it in the caller's thread.
   */
  progress?: ProgressSink;
  /**
   * Watch the work tree (watch.ts) so a track looks only at what changed. Default false (every track walks);
   * when the watcher cannot start here the store walks on every track, as without it.
   */
  watch?: boolean;
  /**
   * Which watcher backs `watch` (watch.ts): `native` (one inotify watch per folder, Linux) or `parcel`
   * (@parcel/watcher). Default: native on Linux, parcel elsewhere.
   */
  watchBackend?: WatchBackend;
}

/** Options of one track. */
export interface TrackOptions {
  /** Walk the whole work tree even when a watcher runs (a turn's first track: the watcher is a hint only). */
  verify?: boolean;
}

/** A file the last track left out, with the reason (never silent). */
export interface SkippedFile {
  path: string;
  reason: 'too_large' | 'unreadable' | 'special';
  size?: number;
}

/** Files that differ between a tree and the work tree, as recorded in a session's patch part. */
export interface PatchInfo {
  hash: string;
  files: string[];
}

/** One file a restore or revert could not bring back, with why. */
export interface FailedFile {
  path: string;
  reason: string;
}

/** A file a restore or revert left exactly as it was: no snapshot captured it (keep.ts), so it is never touched. */
export interface KeptFile {
  path: string;
  reason: 'not_captured';
}

/** What a restore or revert did to the work tree. */
export interface RestoreReport {
  /** Files written (created, rewritten, or mode/link changed). */
  restored: string[];
  /** Files removed because the target tree does not have them. */
  deleted: string[];
  failed: FailedFile[];
  /** Files left alone although the target differs: they exist and no snapshot captured them. */
  kept: KeptFile[];
}

/** Options of `gc`. */
export interface GcOptions {
  /** Tree hashes still referenced (e.g. by sessions); everything reachable from them is kept. */
  keep: string[];
  /** Unreachable objects younger than this (ms) are kept. Default 7 days. */
  olderThanMs?: number;
}

/** What gc removed. */
export interface GcReport {
  removedObjects: number;
  keptObjects: number;
  freedBytes: number;
}

/** Plain-folder ignore defaults (DESIGN §4): dependency and build output folders. */
export const DEFAULT_IGNORES: readonly string[] = [
  'node_modules/',
  '.venv/',
  'venv/',
  '__pycache__/',
  'dist/',
  'build/',
  'out/',
  'target/',
  '.next/',
  '.cache/',
  '.DS_Store',
];

/** Default size limit for untracked files: 2 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Default gc retention: 7 days in ms. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
