/**
 * The shadow snapshot store (src/main/snapshot, DESIGN §4) as sessions, review and the loop hold it: the one
 * `Snapshots` interface of the snapshot layer (src/main/snapshot/snapshots.ts), under the name the session layer
 * has always used. `openProjectRuntime` (agent/project.ts) binds it to a SnapshotStore or a SnapshotWorker.
 */
export type { Snapshots as SnapshotPort } from '../snapshot/snapshots';
export type { PatchInfo, RestoreReport } from '../snapshot/types';
