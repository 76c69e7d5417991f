/**
 * Public entry of the shadow snapshot store (DESIGN §4).
 *
 * `SnapshotStore` runs in the calling thread (tests, CLI); `openInWorker` gives the same API backed by a worker
 * thread so the Electron main process and the web host never block on a large track.
 */
export { SnapshotStore } from './store';
export { SnapshotWorker, openInWorker } from './worker-client';
export type { ChangedPath, ChangeStatus, TreeFile } from './git/tree-read';
export { isSnapshotCall, SNAPSHOT_CALLS, type SnapshotCall, type Snapshots } from './snapshots';
export { EMPTY_TREE } from './git/object-id';
export {
  DEFAULT_IGNORES,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_RETENTION_MS,
  type FailedFile,
  type GcOptions,
  type GcReport,
  type PatchInfo,
  type RestoreReport,
  type SkippedFile,
  type SnapshotOptions,
  type TrackOptions,
} from './types';
