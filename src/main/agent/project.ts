/**
 * What the service keeps per open project: its real root, its shadow snapshot store (opened on first use, one
 * per project in `<dataDir>/snapshot/`), and the record of which session's tools wrote which files (loop.ts).
 */
import type { Project } from '../../shared/model';
import type { GcReport } from '../snapshot/types';
import { SnapshotStore } from '../snapshot/store';
import { SnapshotWorker } from '../snapshot/worker-client';
import type { SnapshotPort } from '../session/snapshot-port';
import type { ProgressSink } from '../snapshot/progress';
import { ProjectWrites } from './loop';

export interface ProjectRuntime {
  project: Project;
  snapshot: SnapshotPort;
  writes: ProjectWrites;
  /** Prune snapshot objects not reachable from `keep` (tree hashes still referenced by sessions). */
  gc(keep: string[]): Promise<GcReport>;
  close(): Promise<void>;
}

/**
 * Open the runtime of a project (its snapshot store lives under `dataDir`). With `worker`, the store runs in a
 * worker thread (same API), watching the work tree (snapshot/watch.ts) and taking its first track on open.
 * `progress` hears the store's long operations (snapshot/progress.ts). Throws LandfallFailure from the store.
 */
export async function openProjectRuntime(
  project: Project,
  dataDir: string,
  worker?: boolean | { workerUrl: URL },
  progress?: ProgressSink,
): Promise<ProjectRuntime> {
  const options = { worktree: project.root, dataDir, projectId: project.id, ...(progress ? { progress } : {}) };
  // In the worker (the app and the web host) the work tree is watched, so a step's tracks follow what changed.
  const watched = { ...options, watch: true };
  const store = worker
    ? await SnapshotWorker.open(typeof worker === 'object' ? { ...watched, workerUrl: worker.workerUrl } : watched)
    : await SnapshotStore.open(options);
  return {
    project,
    snapshot: store,
    writes: new ProjectWrites(),
    gc: (keep) => store.gc({ keep }),
    close: () => store.close(),
  };
}
