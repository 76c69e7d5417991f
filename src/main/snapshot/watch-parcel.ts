/**
 * The parcel backend of the work-tree watcher (watch.ts has the contract): a recursive @parcel/watcher subscription
 * on the work tree, used where per-folder inotify is not available (macOS, Windows).
 *
 * Delivery is asynchronous (parcel batches events on its own thread, 50–500 ms), so a track first calls `settle`:
 * it changes the work-tree folder's own mode to the mode it already has (only its ctime moves; no byte, name or
 * permission of the project changes) and waits for that event. The operating system queues events in the order
 * the changes happened, and one subscription delivers them in that order, so once it arrives every change that
 * finished before `settle` was called has been reported. When it does not arrive within `SETTLE_MS`, `settle`
 * answers false and the caller walks everything. Parcel can go on naming a moved folder's files by their old
 * paths, so the store walks everything after a folder move and subscribes afresh (`followsMoves` is false).
 *
 * Ignored by the subscription: `.git` folders (the user's repository data is never part of a tree; the index and
 * info/exclude, which are, are checked by stat on every track in store.ts).
 */
import { chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { lstatSync } from 'node:fs';
import type { StatCacheData } from './stat-entries';
import type { TreeWatcher, WatchReport } from './watch-types';

/** Longest wait (ms) for the settle event before a track falls back to a full walk (parcel batches ≤ 500 ms). */
export const SETTLE_MS = 3000;

interface ParcelEvent {
  path: string;
  type: 'create' | 'update' | 'delete';
}
interface ParcelSubscription {
  unsubscribe(): Promise<void>;
}
interface ParcelWatcher {
  subscribe(
    dir: string,
    fn: (err: Error | null, events: ParcelEvent[]) => void,
    opts?: { ignore?: string[] },
  ): Promise<ParcelSubscription>;
}

/** The native module, or undefined when it cannot load on this platform (then every track walks). */
function loadParcel(): ParcelWatcher | undefined {
  try {
    return createRequire(import.meta.url)('@parcel/watcher') as ParcelWatcher;
  } catch {
    return undefined;
  }
}

/** A recursive parcel watch of one work tree (real path `root`). Start with `ParcelTreeWatcher.start`. */
export class ParcelTreeWatcher implements TreeWatcher {
  readonly backend = 'parcel' as const;
  readonly followsMoves = false;
  private paths = new Set<string>();
  /** True until the first `take`: a new subscription knows nothing of what changed before it started. */
  private full = true;
  /**
   * True once the subscription failed (parcel then stops calling back): `settle` answers false at once and the
   * store starts a new watcher (store.ts).
   */
  broken = false;
  private settles: (() => void)[] = [];
  private sub: ParcelSubscription | undefined;
  /** Events delivered so far, and settles that timed out (tests and the benchmark read them). */
  readonly stats = { delivered: 0, settleTimeouts: 0, watched: 0 };

  private constructor(private readonly root: string) {}

  /**
   * Subscribes to `root` (a real path); undefined when the watcher cannot run here (module missing, no inotify
   * watches left, unsupported file system) — the caller then walks on every track, as without a watcher.
   */
  static async start(root: string): Promise<ParcelTreeWatcher | undefined> {
    const parcel = loadParcel();
    if (!parcel) return undefined;
    const w = new ParcelTreeWatcher(root);
    try {
      w.sub = await parcel.subscribe(root, (err, events) => w.onEvents(err, events), { ignore: ['**/.git/**'] });
    } catch {
      return undefined;
    }
    return w;
  }

  private onEvents(err: Error | null, events: ParcelEvent[]): void {
    if (err) {
      // An error may have lost events and ends the subscription: only a full walk is exact now.
      this.full = true;
      this.broken = true;
    }
    const prefix = `${this.root}/`;
    let settled = false;
    for (const e of events) {
      this.stats.delivered++;
      if (e.path === this.root) settled = true;
      else if (e.path.startsWith(prefix)) this.paths.add(e.path.slice(prefix.length));
    }
    if (settled || err) {
      const waiting = this.settles;
      this.settles = [];
      for (const done of waiting) done();
    }
  }

  /**
   * Resolves true once every change that finished before this call has been reported (module docstring), false
   * when the settle event did not come within `SETTLE_MS` or the folder's mode cannot be set (the caller then walks
   * everything). Several callers may wait on one settle.
   */
  settle(): Promise<boolean> {
    if (this.broken) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.stats.settleTimeouts++;
        this.settles = this.settles.filter((f) => f !== done);
        resolve(false);
      }, SETTLE_MS);
      const done = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.settles.push(done);
      try {
        chmodSync(this.root, statSync(this.root).mode & 0o7777);
      } catch {
        this.settles = this.settles.filter((f) => f !== done);
        clearTimeout(timer);
        resolve(false);
      }
    });
  }

  /** True when `take` would report nothing. */
  quiet(): boolean {
    return !this.full && this.paths.size === 0;
  }

  /** What was reported since the last `take`, and forgets it. */
  take(): WatchReport {
    const report = { events: this.paths, pending: new Set<string>(), full: this.full };
    this.paths = new Set();
    this.full = false;
    return report;
  }

  /** Gives back a report whose track failed: its paths are answered again by the next `take`. */
  putBack(report: WatchReport): void {
    for (const p of report.events) this.paths.add(p);
    if (report.full) this.full = true;
  }

  /** Nothing to do: the subscription covers the whole tree. */
  afterWalk(): void {
    // parcel watches recursively from the root; there is no per-folder watch to add or renew
  }

  /**
   * Forgets what was reported since the last `take` as if those events had been lost (fault injection for tests
   * and the benchmark: the next full walk must still find every change).
   */
  dropReported(): void {
    this.paths = new Set();
  }

  /** Ends the subscription (a watch the system already dropped, e.g. of a deleted folder, is no failure). */
  async close(): Promise<void> {
    const sub = this.sub;
    this.sub = undefined;
    this.broken = true;
    await sub?.unsubscribe().catch(() => undefined);
  }
}

/**
 * True when a folder of the last track moved to another reported path inside the work tree (its inode now stands
 * at a reported path that it did not before). Watchers (parcel's inotify backend among them) can keep naming a
 * moved folder's contents by their old paths, so the store trusts no report after such a move.
 */
export function folderMoved(root: string, cache: StatCacheData, paths: ReadonlySet<string>): boolean {
  const gone = new Set<number>();
  for (const p of paths) {
    const rec = cache.dirs.get(p);
    if (!rec) continue;
    let st;
    try {
      st = lstatSync(`${root}/${p}`);
    } catch {
      st = undefined;
    }
    if (!st || !st.isDirectory() || st.ino !== rec.ino) gone.add(rec.ino);
  }
  if (gone.size === 0) return false;
  for (const p of paths) {
    let st;
    try {
      st = lstatSync(`${root}/${p}`);
    } catch {
      continue;
    }
    if (st.isDirectory() && gone.has(st.ino) && cache.dirs.get(p)?.ino !== st.ino) return true;
  }
  return false;
}
