/**
 * The native backend of the work-tree watcher (watch.ts has the contract): one `fs.watch` per folder the last walk
 * entered — on Linux an inotify watch; all watches of a thread share libuv's one inotify queue. Folders a walk did
 * not enter (ignored ones, `.git`) are not watched: nothing in them is part of a tree, and a rule change that would
 * let the walk in is a full walk anyway (store.ts).
 *
 * Why no wait is needed: inotify queues an event before the system call that made the change returns, and libuv
 * reads the whole queue each time the event loop polls. `settle` therefore waits two turns of the loop (the second
 * turn's poll starts after the call), and every change finished before the call has then been delivered.
 *
 * What keeps it exact:
 * - A folder is watched before a walk reads it, or it is looked at again: the folders of the stat cache are watched
 *   at start (the first track is a full walk); a folder a walk found without a watch is watched after that walk and
 *   reported ("pending") to the next track, which walks it whole — so its listing is read again once the watch runs.
 *   Watches are added parents first, so a folder replaced after its watch was added is reported by its parent.
 * - A watch can die with its folder (deleted, or moved away) while a new folder, even with the same inode number,
 *   takes its path. A folder whose name an event reported is watched afresh (its whole subtree) after the walk; a
 *   full walk also renews every watch whose folder's inode or ctime differs from what the watch was stamped with
 *   (a ctime within RACY_MS of the moment the watch was added proves nothing, so such a watch is renewed too) — so
 *   a verifying walk repairs the watcher as well as the snapshot, whatever events were lost. A replaced or re-created work-tree
 *   folder stops the watcher (the store starts a new one and walks everything).
 * - Overflow: when the queue is full the kernel drops events, and libuv drops the overflow notice. A queue overflows
 *   only after `max_queued_events` events were queued, and every queued event reaches a watch of this thread (or a
 *   watch just ended — see `OVERFLOW_GUARD`), so once half that many were delivered since the last `take`, the next
 *   track walks everything.
 * - A watch that fails (an `error` event, watches used up) breaks the watcher: the store starts a new one, and walks
 *   on every track if that cannot start.
 * Not seen by inotify (as by every inotify-based watcher, git's fsmonitor hooks included): writes through a hard
 * link in a folder that is not watched, writes through a shared memory map, changes made on another machine of a
 * network file system; the verifying walk at each turn's start finds them.
 */
import { lstatSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import { RACY_MS, type DirRecord } from './stat-entries';
import type { TreeWatcher, WalkSeen, WatchReport } from './watch-types';

/** The kernel's inotify queue length (events), 16,384 when it cannot be read. */
function queueLength(): number {
  try {
    const n = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    if (Number.isInteger(n) && n > 0) return n;
  } catch {
    // not Linux, or /proc hidden: the kernel default
  }
  return 16384;
}

/**
 * Events delivered since the last `take` from which an overflow is assumed: half the queue. The other half is the
 * margin for events that were queued but not counted — those of a watch this thread ended (a folder that left the
 * tree) between its last delivery and its end, a window of microseconds.
 */
export const OVERFLOW_GUARD = Math.max(1, Math.floor(queueLength() / 2));

/** Newly watched folders above which the next track walks everything instead of walking each of them whole. */
export const PENDING_LIMIT = 2000;

/** Events delivered to every NativeWatcher of this thread (they share one inotify queue). */
let threadDelivered = 0;

/** What a watch was stamped with: its folder's inode and ctime when the watch was added. */
interface Stamp {
  ino: number;
  ctimeMs: number;
  /** False when the ctime was within RACY_MS of the moment it was read: then it cannot prove "unchanged". */
  trusted: boolean;
}

interface Watch extends Stamp {
  handle: FSWatcher;
}

const loopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The stamp of a watch added now to the folder `rec` describes (its lstat, taken before). Trusted when the ctime is
 * over RACY_MS older than now: a folder that replaced it later (after the watch was added, so the watch died with
 * the old one) has a ctime at least one clock tick later, so equal stamps then prove the same, unchanged folder.
 */
function stampOf(rec: { ino: number; ctimeMs: number }): Stamp {
  return { ino: rec.ino, ctimeMs: rec.ctimeMs, trusted: rec.ctimeMs < Date.now() - RACY_MS };
}

/** Per-folder watches of one work tree (real path `root`). Start with `NativeWatcher.start`. */
export class NativeWatcher implements TreeWatcher {
  readonly backend = 'native' as const;
  readonly followsMoves = true;
  broken = false;
  readonly stats = { delivered: 0, settleTimeouts: 0, watched: 0 };
  private readonly watches = new Map<string, Watch>();
  /** Paths events named since the last `take`. */
  private events = new Set<string>();
  /** Folders watched since the last `take` (to be walked whole once more). */
  private pending = new Set<string>();
  /** True until the first `take`, and after a failure: only a full walk is exact. */
  private full = true;
  /** The work-tree folder's own name: an event of that name at the root may be the root itself leaving. */
  private readonly rootName: string;
  /** `threadDelivered` at the last `take`. */
  private mark = threadDelivered;

  private constructor(private readonly root: string) {
    this.rootName = basename(root);
  }

  /**
   * Watches `root` and the folders of `dirs` (the stat cache's, worktree-relative; '' = root), parents first, each
   * stamped from an lstat taken just before its watch. Undefined when the root cannot be watched or watches run
   * out (ENOSPC): the caller walks on every track.
   */
  static start(root: string, dirs: ReadonlyMap<string, DirRecord>): NativeWatcher | undefined {
    const w = new NativeWatcher(root);
    const rels = [...dirs.keys()];
    if (!dirs.has('')) rels.push('');
    for (const rel of rels.sort()) {
      let st;
      try {
        st = lstatSync(w.abs(rel));
      } catch {
        continue; // gone since the last walk: the first track walks everything anyway
      }
      if (!st.isDirectory()) continue;
      if (!w.add(rel, stampOf(st))) break;
    }
    if (w.broken || !w.watches.has('')) {
      w.closeNow();
      return undefined;
    }
    w.stats.watched = w.watches.size;
    return w;
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : `${this.root}/${rel}`;
  }

  /**
   * Watches folder `rel` stamped `stamp`, then ends an older watch of it (in that order, so a folder watched afresh
   * never goes unwatched). A folder gone or made unreadable since the walk is skipped: the change that did it is
   * reported by its parent's watch. Any other failure (watches used up) breaks the watcher; answers false then.
   */
  private add(rel: string, stamp: Stamp): boolean {
    const old = this.watches.get(rel);
    let handle: FSWatcher;
    try {
      handle = watch(this.abs(rel), { persistent: false }, (_type, name) => this.onEvent(rel, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') {
        this.drop(rel);
        return true;
      }
      this.fail();
      return false;
    }
    handle.on('error', () => this.fail());
    this.watches.set(rel, { handle, ...stamp });
    old?.handle.close();
    return true;
  }

  private drop(rel: string): void {
    this.watches.get(rel)?.handle.close();
    this.watches.delete(rel);
  }

  private onEvent(rel: string, name: string | Buffer | null): void {
    threadDelivered++;
    this.stats.delivered++;
    if (typeof name !== 'string') {
      this.full = true; // no name: only a full walk knows what changed
      return;
    }
    // At the root, the root's own name may be the root itself deleted or moved away (the kernel names a watched
    // folder's own events by the folder's name): a new watcher is needed for whatever stands there now.
    if (rel === '' && name === this.rootName) this.fail();
    this.events.add(rel === '' ? name : `${rel}/${name}`);
  }

  private fail(): void {
    this.broken = true;
    this.full = true;
  }

  /** Resolves after two turns of the event loop (module docstring); false once the watcher failed. */
  async settle(): Promise<boolean> {
    if (this.broken) return false;
    await loopTurn();
    await loopTurn();
    return !this.broken;
  }

  /** True when `take` would report nothing. */
  quiet(): boolean {
    return (
      !this.full && this.events.size === 0 && this.pending.size === 0 && threadDelivered - this.mark < OVERFLOW_GUARD
    );
  }

  /** What was reported since the last `take` (events and newly watched folders), and forgets it. */
  take(): WatchReport {
    const overflow = threadDelivered - this.mark >= OVERFLOW_GUARD;
    this.mark = threadDelivered;
    const report = { events: this.events, pending: this.pending, full: this.full || overflow };
    this.events = new Set();
    this.pending = new Set();
    this.full = false;
    return report;
  }

  /** Gives back a report whose track failed: the next `take` answers its paths (and `full`) again. */
  putBack(report: WatchReport): void {
    for (const p of report.events) this.events.add(p);
    for (const p of report.pending) this.pending.add(p);
    if (report.full) this.full = true;
  }

  /** Forgets the paths events named since the last `take` (fault injection: a lost event). */
  dropReported(): void {
    this.events = new Set();
  }

  /**
   * After a walk: ends the watches of folders that left the tree; watches (parents first) every folder the walk
   * recorded that has no watch, whose inode changed, that lies at or under a path an event named, or — after a full
   * walk — whose stamp does not prove it unchanged; each such folder is pending for the next track. Past
   * PENDING_LIMIT the next track walks everything instead.
   */
  afterWalk(seen: WalkSeen): void {
    if (this.broken) return;
    const renew = this.watchedUnder(seen.reported);
    if (seen.full) for (const rel of [...this.watches.keys()]) if (!seen.dirs.has(rel)) this.drop(rel);
    for (const rel of seen.gone) this.drop(rel);
    const add: string[] = [];
    for (const [rel, rec] of seen.dirs) {
      const w = this.watches.get(rel);
      const keep =
        w !== undefined &&
        w.ino === rec.ino &&
        !renew.has(rel) &&
        (!seen.full || (w.trusted && w.ctimeMs === rec.ctimeMs));
      if (!keep) add.push(rel);
    }
    for (const rel of add.sort()) {
      if (!this.add(rel, stampOf(seen.dirs.get(rel) as DirRecord))) return;
      this.pending.add(rel);
    }
    this.stats.watched = this.watches.size;
    if (this.pending.size > PENDING_LIMIT) {
      this.pending.clear();
      this.full = true;
    }
  }

  /** Watched folders at or under any of `paths`. */
  private watchedUnder(paths: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    for (const p of paths) {
      if (!this.watches.has(p)) continue;
      const prefix = `${p}/`;
      for (const rel of this.watches.keys()) if (rel === p || rel.startsWith(prefix)) out.add(rel);
    }
    return out;
  }

  private closeNow(): void {
    this.broken = true;
    for (const w of this.watches.values()) w.handle.close();
    this.watches.clear();
    this.stats.watched = 0;
  }

  /** Ends every watch. */
  async close(): Promise<void> {
    this.closeNow();
    await Promise.resolve();
  }
}
