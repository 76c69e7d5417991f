/**
 * The parcel backend of the work-tree watcher (watch.ts has the contract): a recursive @parcel/watcher subscription
 * on the work tree, used where per-folder inotify is not available (macOS, Windows).
 *
 * Delivery is asynchronous (parcel batches events on its own thread, 50–500 ms), so a track first calls `settle`:
 * it changes the work-tree folder's own mode to the mode it already has (only its ctime moves; no byte, name or
 * permission of the project changes) and waits for that event — the marker. The operating system queues events in
 * the order the changes happened, and one subscription delivers them in that order, so once the marker arrives
 * every change that finished before it was made has been reported.
 *
 * Every marker looks the same (an event on the work-tree folder's own path, and parcel merges events of one path),
 * so an event can only be trusted as the answer to the one marker that was in flight when it came. Markers
 * therefore go out one at a time, in rounds: a `settle` called while a marker is in flight waits for the round
 * after it, whose marker is made once the earlier one has arrived. Without rounds, a marker made before a thread
 * was busy (a full walk holds the snapshot worker's thread; parcel's batches queue meanwhile) arrived just after a
 * later `settle` began and answered it before the change made between the two was reported (CI, 1 in 113 runs under
 * load). A marker that does not arrive within `SETTLE_MS` answers its settles false (the store walks everything) and
 * stays in flight for another `SETTLE_MS`, so its late event answers no later round; overdue twice, it ends the
 * subscription (the store subscribes afresh). Parcel can go on naming a
 * moved folder's files by their old paths, so the store walks everything after a folder move and subscribes afresh
 * (`followsMoves` is false). One loss no marker can reveal is parcel's own: it copies a batch and clears its list in
 * two steps (Watcher::triggerCallbacks in @parcel/watcher 2.x), so an event added in between is dropped; the
 * turn's verifying track, which walks everything, finds such a change.
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
  /**
   * The marker in flight (undefined: none is): its waiters, the timer that gives up on it, and whether it already
   * timed out once (its waiters were answered false; it is still awaited so that it answers no later round).
   */
  private round:
    { waiters: ((ok: boolean) => void)[]; timer: ReturnType<typeof setTimeout>; late: boolean } | undefined;
  /** Waiters that came while a marker was in flight: they get the next round's marker. */
  private nextRound: ((ok: boolean) => void)[] = [];
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
    if (this.sub === undefined && this.broken) return; // closed: a late batch changes nothing
    if (err) {
      // An error may have lost events and ends the subscription: only a full walk is exact now.
      this.fail();
      return;
    }
    const prefix = `${this.root}/`;
    let marker = false;
    for (const e of events) {
      this.stats.delivered++;
      if (e.path === this.root) marker = true;
      else if (e.path.startsWith(prefix)) this.paths.add(e.path.slice(prefix.length));
    }
    const round = this.round;
    if (!marker || !round) return;
    clearTimeout(round.timer);
    this.round = undefined;
    for (const done of round.waiters) done(true);
    if (this.nextRound.length > 0) this.startRound(this.nextRound.splice(0));
  }

  /** Makes the marker for `waiters` (the round in flight from now on); answers them false when it cannot. */
  private startRound(waiters: ((ok: boolean) => void)[]): void {
    const timer = setTimeout(() => this.overdue(), SETTLE_MS);
    this.round = { waiters, timer, late: false };
    try {
      chmodSync(this.root, statSync(this.root).mode & 0o7777);
    } catch {
      // The folder is gone or its mode cannot be set: no marker will come, so no report can be proved complete.
      this.fail();
    }
  }

  /**
   * The marker in flight did not come within SETTLE_MS (a loaded machine can delay parcel's batches that long): its
   * waiters are answered false (they walk everything), and it stays in flight for SETTLE_MS more, so that its late
   * event answers no later round — settles called meanwhile wait behind it. A marker overdue twice ends the
   * subscription (fail).
   */
  private overdue(): void {
    this.stats.settleTimeouts++;
    const round = this.round;
    if (!round || round.late) return this.fail();
    for (const done of round.waiters.splice(0)) done(false);
    round.late = true;
    round.timer = setTimeout(() => this.overdue(), SETTLE_MS);
  }

  /**
   * The subscription can no longer be trusted (an error, or a marker that never came and might still): every waiter
   * is answered false, the next `take` reports `full`, and the store subscribes afresh (`broken`).
   */
  private fail(): void {
    this.full = true;
    this.broken = true;
    const round = this.round;
    this.round = undefined;
    if (round) clearTimeout(round.timer);
    for (const done of [...(round?.waiters ?? []), ...this.nextRound.splice(0)]) done(false);
  }

  /**
   * Resolves true once every change that finished before this call has been reported (module docstring: the marker
   * of this call's round has arrived), false when the subscription failed, the marker did not come within
   * `SETTLE_MS` of being made, or the folder's mode cannot be set (the caller then walks everything). Waits for at
   * most two rounds: the one in flight when called, then its own.
   */
  settle(): Promise<boolean> {
    if (this.broken) return Promise.resolve(false);
    return new Promise((resolve) => {
      if (this.round) this.nextRound.push(resolve);
      else this.startRound([resolve]);
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
    this.fail();
    this.sub = undefined;
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
