/**
 * Shapes shared by the watcher backends (watch.ts has the contract in words; watch-native.ts and watch-parcel.ts
 * implement it), kept apart so the backends and their chooser do not import each other.
 */
import type { DirRecord } from './stat-entries';

/** Which backend watches: per-folder inotify through fs.watch, or a recursive @parcel/watcher subscription. */
export type WatchBackend = 'native' | 'parcel';

/**
 * What changed since the last `take` (worktree-relative paths): `events`, the paths the operating system named;
 * `pending`, folders whose watch is newer than the walk that last read them (their own entries are looked at
 * again); `full` when only a full walk is exact.
 */
export interface WatchReport {
  events: Set<string>;
  pending: Set<string>;
  full: boolean;
}

/** What a walk saw, for a watcher that watches per folder (`afterWalk`). */
export interface WalkSeen {
  /** True for a full walk: `dirs` then holds every folder of the tree. */
  full: boolean;
  /** The folder records this walk wrote ('' = root): every folder of a full walk, the visited ones of a guided one. */
  dirs: ReadonlyMap<string, DirRecord>;
  /** Folders a guided walk removed from the stat cache (gone, or no longer a folder). */
  gone: readonly string[];
  /** The paths events named in the report this walk followed (`WatchReport.events`). */
  reported: ReadonlySet<string>;
}

/** A running watcher of one work tree (see the module docstring). */
export interface TreeWatcher {
  readonly backend: WatchBackend;
  /**
   * False when the watcher can go on naming a moved folder's files by their old paths (parcel): the store then
   * walks everything after a folder move and starts the watcher afresh.
   */
  readonly followsMoves: boolean;
  /** True once the watcher failed: `settle` answers false and the store starts a new one. */
  broken: boolean;
  /** Events delivered, settles that timed out, folders watched (tests and the benchmark read them). */
  readonly stats: { delivered: number; settleTimeouts: number; watched: number };
  /** Resolves true once every change finished before the call has been reported; false: walk everything. */
  settle(): Promise<boolean>;
  /** True when `take` would report nothing (no path, no full walk). */
  quiet(): boolean;
  /** What was reported since the last `take`, and forgets it. */
  take(): WatchReport;
  /** Gives back a report whose track failed, so the next `take` answers it again. */
  putBack(report: WatchReport): void;
  /** Forgets what was reported since the last `take`, as a lost event would be (fault injection). */
  dropReported(): void;
  /** After a track's walk: a per-folder watcher watches the folders it entered (a no-op for parcel). */
  afterWalk(seen: WalkSeen): void;
  /** Ends the watch. */
  close(): Promise<void>;
}
