/**
 * The work-tree watcher that feeds the track walk (the idea of git's core.fsmonitor): it collects the paths the
 * operating system reported changed, so the next track lstats and hashes only those paths and their folders (walk.ts
 * in guided mode, walk-guide.ts). The watcher is a hint, never the truth: the store walks the whole tree when no
 * watcher runs, after a watcher error or a queue overflow, on the first track, when a turn starts, and after a
 * suspend (store.ts decides; `take` reports `full` for what the watcher itself knows).
 *
 * Two backends, one contract:
 * - `native` (watch-native.ts, the default on Linux): one inotify watch per folder the last walk entered, through
 *   Node's own `fs.watch`. The kernel queues an event before the changing call returns, and libuv reads the whole
 *   queue whenever the thread's event loop polls, so `settle` is two turns of the event loop — no timer, no write.
 * - `parcel` (watch-parcel.ts, other platforms): a recursive @parcel/watcher subscription. Parcel batches events on
 *   its own thread (≥ 50 ms), so `settle` writes a marker (re-applies the work-tree folder's own mode) and waits for
 *   its event; markers look alike, so one is in flight at a time and each answers only its own round.
 */
import type { DirRecord } from './stat-entries';
import type { TreeWatcher, WatchBackend } from './watch-types';
import { NativeWatcher } from './watch-native';
import { ParcelTreeWatcher } from './watch-parcel';

export type { TreeWatcher, WalkSeen, WatchBackend, WatchReport } from './watch-types';

/** The backend used when none is named: per-folder inotify on Linux, parcel elsewhere (kqueue needs a descriptor per folder). */
export function defaultBackend(): WatchBackend {
  return process.platform === 'linux' ? 'native' : 'parcel';
}

/**
 * Starts watching work tree `root` (a real path). `dirs` are the folders the stat cache knows (native watches them
 * now, before the first walk reads them). Undefined when the watcher cannot run here (module missing, inotify
 * watches used up, unsupported file system): the store then walks on every track.
 */
export async function startWatcher(
  root: string,
  dirs: ReadonlyMap<string, DirRecord>,
  backend: WatchBackend = defaultBackend(),
): Promise<TreeWatcher | undefined> {
  return backend === 'native' ? NativeWatcher.start(root, dirs) : ParcelTreeWatcher.start(root);
}
