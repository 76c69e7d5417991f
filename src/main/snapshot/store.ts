/**
 * SnapshotStore: a shadow git store (bare git dir in the app's data folder, work tree = the user's project)
 * written and read synchronously by this module's own object layer in git's formats, created with isomorphic-git.
 *
 * - track: one walk with the stat cache (walk.ts) → tree id; no commit, ref or HEAD. New objects go loose, or
 *   into one pack when many (a first track: similar blobs as deltas, compressed on a helper thread; git/pack-writer.ts).
 * - patch / diff / diffFull: tree diff that skips equal subtrees (git/tree-read.ts), blobs read only for changed files.
 * - restore: walk the current state in memory (nothing stored), diff it against the target, then delete, prune
 *   emptied folders, and write only differing files (worktree-writer.ts). revert: per file, the earliest patch's
 *   tree wins.
 * - Every operation runs under StoreLock (in-process chain + lock file). Expected failures are thrown as
 *   LandfallFailure (`not_found` unknown hash, `busy` lock timeout, `unavailable` after close, `invalid_input`).
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import * as nodeFs from 'node:fs';
import { LandfallFailure } from '../../shared/errors';
import type { FileDiff } from '../../shared/model';
import { fileDiff, unifiedText } from './file-diff';
import { removeDoomed, runGc, type Doomed } from './gc';
import { StoreLock } from './lock';
import { ObjectDb, ObjectSink } from './git/object-db';
import { EMPTY_TREE, isObjectId, type ObjectType } from './git/object-id';
import { rootRules, storeDir, UserIndexCache, userGitDir } from './project';
import { cacheStamp, loadStatCache, persistChange, saveStatCache } from './stat-cache';
import { mergeFull } from './stat-merge';
import { changesNothing, composeChange, emptyChange, type StatCacheChange, type StatCacheData } from './stat-entries';
import { changeStatus, TreeReader, type ChangedPath, type TreeChange, type TreeFile } from './git/tree-read';
import {
  DEFAULT_IGNORES,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_RETENTION_MS,
  type GcOptions,
  type GcReport,
  type PatchInfo,
  type RestoreReport,
  type SkippedFile,
  type SnapshotOptions,
} from './types';
import { walkDir, type WalkContext } from './walk';
import { PREFETCH_WARM_BYTES, sharedPrefetcher } from './stat-prefetch';
import { keepRule } from './keep';
import { LeftOutRecords } from './left-out';
import { revertFiles, restoreChanges } from './restore';
import { describeRecovery, recoverJournals } from '../fs/recovery';
import type { Snapshots } from './snapshots';
import { startWatcher, type TreeWatcher, type WatchBackend, type WatchReport } from './watch';
import { folderMoved } from './watch-parcel';
import { IdleTask } from './idle-task';
import { guideFor, inParents, mergeGuided, treeIds, untouched, type WalkGuide } from './walk-guide';
import type { TrackOptions } from './types';
import { ProgressMeter, transactionProgress } from './progress';

/**
 * Gap (ms) between wall-clock and monotonic time elapsed since the last walk above which the machine is taken to
 * have been suspended (the monotonic clock stops while suspended): the watcher may have missed changes, so the
 * next track walks everything.
 */
export const SUSPEND_GAP_MS = 2000;

/** Guided tracks whose stat-cache changes wait for the store to be idle before they are written at once. */
const MAX_UNSAVED_TRACKS = 16;

/** What the last walk that produced the stat cache left out, and what a guided walk must find unchanged. */
interface LastWalk {
  leftOut: string[];
  skipped: SkippedFile[];
  /** The user's git dir, info/exclude and index as stat'ed then: any change means a full walk. */
  rulesKey: string;
  wall: number;
  mono: number;
}

/** The `doomed` lists of a parsed gc file (store.ts `stampGc`), undefined when it holds none. */
function doomedIn(parsed: unknown): Doomed | undefined {
  const d = (parsed as { doomed?: unknown } | null)?.doomed as { loose?: unknown; packs?: unknown } | null | undefined;
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === 'string');
  return d && strings(d.loose) && strings(d.packs) ? { loose: d.loose, packs: d.packs } : undefined;
}

function statKey(file: string): string {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  } catch {
    return '-';
  }
}

function closedFailure(): LandfallFailure {
  return new LandfallFailure({
    code: 'unavailable',
    message: 'snapshot store is closed',
    hint: 'open the store again',
  });
}

function invalid(message: string, hint: string): LandfallFailure {
  return new LandfallFailure({ code: 'invalid_input', message, hint });
}

/** The shadow snapshot store of one work tree, in the calling thread. Open with `SnapshotStore.open`. */
export class SnapshotStore implements Snapshots {
  /** What the last track left out (size limit, unreadable, special files). */
  lastSkipped: SkippedFile[] = [];
  /** What the last walk (stored or in memory) left out: left-out.ts. */
  private walkLeftOut: string[] = [];
  private readonly records: LeftOutRecords;
  private cache: StatCacheData | undefined;
  /**
   * True while the cache files on disk hold exactly `cache` but `unsaved` (so a journal record of the difference
   * suffices).
   */
  private diskInSync = false;
  /** Guided tracks' changes to `cache` not on disk yet, as one change (persistLater), and how many tracks made it. */
  private unsaved: StatCacheChange | undefined;
  private unsavedTracks = 0;
  /** Stat stamp of the cache files as this store last read or wrote them. */
  private diskStamp = '';
  private closed = false;
  private readonly reader: TreeReader;
  private readonly indexCache = new UserIndexCache();
  private readonly prefetcher = sharedPrefetcher;
  /** The work-tree watcher (watch.ts) when the store was opened with `watch` and it could start. */
  private watcher: TreeWatcher | undefined;
  private lastWalk: LastWalk | undefined;
  /**
   * True when `cache.trees` may name trees no longer in the last track (gc recomputes it first, or it would prune
   * trees a later track takes for stored): after a guided walk, and from opening until a full walk replaces the set
   * — the cache on disk may come from guided walks of an earlier process.
   */
  private treesApprox = true;
  /** Stat stamp of `gcFile` as this store last saw it (a gc elsewhere changes it: `distrust`). */
  private gcStamp: string;
  /** Counters of the watchers this store replaced (watchStats adds them). */
  private readonly retiredStats = { delivered: 0, settleTimeouts: 0 };
  /** Full walks taken so far: the walk number that stamps records found as they were (walk.ts `gen`). */
  private fullWalks = 0;
  /** How the last track ran: 'full' walk, 'guided' by the watcher, or 'none' (nothing reported). */
  lastTrackKind: 'full' | 'guided' | 'none' = 'full';
  /**
   * Folders the last track spliced (walk.ts `splicedDir`: taken from their last tree, only the paths on the way and
   * the reported names in them looked at), and of those the ones holding reported names (listed as before).
   */
  lastSpliced = 0;
  lastSplicedListed = 0;
  /** True when the stat cache's journal has grown enough that the idle task rewrites the cache whole. */
  private compactionDue = false;
  /** Merges small packs and rewrites the stat cache when the store is idle (idle-task.ts). */
  private readonly idle = new IdleTask(() => void this.run(() => this.tidy()).catch(() => undefined));
  /** How long (ms) the last track waited for the watcher to report everything (watch.ts settle); 0 without. */
  lastSettleMs = 0;
  /**
   * The trees the last track wrote, by id, as their bytes (a guided track's only: a handful): the next step's
   * spliced folders (walk.ts `splicedDir`) are made from them without reading the pack.
   */
  private stepTrees = new Map<string, Uint8Array>();
  /** Progress of long operations (progress.ts), to SnapshotOptions.progress. */
  private readonly meter: ProgressMeter;

  private constructor(
    /** Real path of the work tree. */
    readonly worktree: string,
    /** The store's git dir. */
    readonly gitdir: string,
    private readonly db: ObjectDb,
    private readonly lock: StoreLock,
    private readonly opts: {
      maxFileBytes: number;
      ignoreDefaults: readonly string[];
      log: (line: string) => void;
      watchBackend: WatchBackend | undefined;
    },
    /** Where restore and revert journal their writes (`<dataDir>/journal`, shared with the service's tools). */
    private readonly journalDir: string,
    progress?: SnapshotOptions['progress'],
  ) {
    this.meter = new ProgressMeter(progress);
    this.reader = new TreeReader(db);
    this.records = new LeftOutRecords(join(gitdir, 'landfall-left-out'));
    this.gcStamp = statKey(this.gcFile);
  }

  /**
   * Opens (creating on first use) the store for `worktree`. Throws LandfallFailure `file_not_found` when the
   * work tree is not a folder, `invalid_input` for a bad projectId. Never writes inside the work tree.
   */
  static async open(options: SnapshotOptions): Promise<SnapshotStore> {
    const projectId = options.projectId ?? 'default';
    if (!/^[A-Za-z0-9._-]+$/.test(projectId) || projectId.startsWith('.'))
      throw invalid(`bad projectId ${JSON.stringify(projectId)}`, 'use letters, digits, ".", "_" or "-"');
    let worktree: string;
    try {
      worktree = realpathSync(options.worktree);
      if (!statSync(worktree).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new LandfallFailure({
        code: 'file_not_found',
        message: `work tree ${options.worktree} is not a folder`,
        hint: 'open an existing project folder',
      });
    }
    const gitdir = storeDir(options.dataDir, projectId, worktree);
    if (gitdir === worktree || gitdir.startsWith(`${worktree}/`))
      throw invalid('the data folder lies inside the work tree', 'choose a data folder outside the project');
    mkdirSync(gitdir, { recursive: true });
    if (!existsSync(join(gitdir, 'HEAD'))) await git.init({ fs: nodeFs, gitdir, bare: true });
    const store = new SnapshotStore(
      worktree,
      gitdir,
      new ObjectDb(gitdir),
      new StoreLock(join(gitdir, 'landfall.lock')),
      {
        maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
        ignoreDefaults: options.ignoreDefaults ?? DEFAULT_IGNORES,
        log: options.log ?? ((line) => console.warn(line)),
        watchBackend: options.watchBackend,
      },
      join(options.dataDir, 'journal'),
      options.progress,
    );
    await store.run(() => {
      store.cleanTemporaries();
      store.finishGc();
      // A restore or revert killed midway (or any journaled write to this work tree) is rolled back first.
      for (const r of recoverJournals(store.journalDir, { root: worktree }))
        store.opts.log(`snapshot: ${describeRecovery(r)}`);
    });
    store.warmPrefetch();
    // Watched from here on, before the first track reads anything (that track walks the whole tree).
    if (options.watch) {
      const dirs = await store.run(() => store.loadedCache().dirs);
      store.watcher = await startWatcher(worktree, dirs, options.watchBackend);
    }
    return store;
  }

  private run<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedFailure());
    return this.lock.run(() => {
      if (this.gcElsewhere()) this.distrust();
      return fn();
    });
  }

  /**
   * Written (temp file, rename: a new inode) by a gc before it removes anything and again once it finished
   * (`stampGc`): a store whose stamp of it differs trusts nothing it holds (`distrust`).
   */
  private get gcFile(): string {
    return join(this.gitdir, 'landfall-gc');
  }

  /** True when a gc this store did not run wrote `gcFile` since this store last looked (one stat). */
  private gcElsewhere(): boolean {
    return statKey(this.gcFile) !== this.gcStamp;
  }

  /**
   * After another process's gc removed objects: what this store took for stored may be gone — the packs it has open
   * (deleted files it still reads through their descriptors), the trees of its tree set, the trees and blobs its
   * stat cache names (a young tree may survive while an old blob under it goes). So the packs are read afresh, the
   * folder records and the tree set dropped, the file entries whose blob is gone dropped, and the next track walks
   * everything: every folder's tree is encoded and stored again when missing. Called under the lock.
   */
  private distrust(): void {
    this.finishGc();
    this.gcStamp = statKey(this.gcFile);
    this.db.reloadPacks();
    this.reader.clear();
    this.stepTrees.clear();
    this.lastWalk = undefined; // only a full walk is exact now
    const cache = this.cache;
    if (!cache) return; // loaded later from the files, which that gc made name only what it kept (`gc`)
    for (const [path, e] of cache.entries) if (!this.db.has(e.oid)) cache.entries.delete(path);
    cache.dirs.clear();
    cache.trees = new Set();
    this.treesApprox = false; // empty: nothing is taken for stored
    this.diskInSync = false; // the next write is whole
    this.opts.log('snapshot: another process removed objects (gc); the next track walks the whole tree');
  }

  /**
   * Writes the gc file (temp file, rename: a new inode, so every other store's stamp of it differs), JSON
   * `{ pid, time, doomed }`: `doomed`, what the gc running here is about to remove (gc.ts Doomed) — a store that
   * finds a list there finishes it (`finishGc`) — or null once it finished.
   */
  private stampGc(doomed?: Doomed): void {
    const tmp = `${this.gcFile}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify({ pid: process.pid, time: Date.now(), doomed: doomed ?? null })}\n`);
    renameSync(tmp, this.gcFile);
    this.gcStamp = statKey(this.gcFile);
  }

  /**
   * Finishes a gc cut short (killed, or failed while removing): removes what the gc file still lists (gc.ts
   * `removeDoomed`, which only takes object and pack names), then marks it finished. Called under the lock, before
   * this store trusts anything (`distrust`, opening): until then a root whose children went may still be there.
   */
  private finishGc(): void {
    let doomed: Doomed | undefined;
    try {
      doomed = doomedIn(JSON.parse(readFileSync(this.gcFile, 'utf8')));
    } catch {
      return; // no gc yet, or not written by one
    }
    if (!doomed) return;
    removeDoomed(this.db, doomed);
    this.stampGc();
    this.opts.log(`snapshot: finished a gc cut short (${doomed.loose.length} objects, ${doomed.packs.length} packs)`);
  }

  /**
   * Runs `fn` in this process's turn but without the lock file (lock.ts `runLocal`): only for work that writes
   * nothing in the store — a track that finds nothing reported, `changed` — so a step takes the lock file once.
   */
  private runLocal<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedFailure());
    return this.lock.runLocal(fn);
  }

  /**
   * Removes what a crashed operation left behind (only called while holding the lock, so no writer is between
   * its two renames): temporary files, and a `.pack` whose `.idx` never arrived (readers never open it).
   */
  private cleanTemporaries(): void {
    const packDir = join(this.gitdir, 'objects', 'pack');
    for (const dir of [join(this.gitdir, 'objects'), packDir, this.gitdir]) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const n of names) {
        const orphanPack =
          dir === packDir && n.startsWith('pack-') && n.endsWith('.pack') && !names.includes(`${n.slice(0, -5)}.idx`);
        if (n.startsWith('tmp_') || n.includes('.tmp-') || orphanPack) unlinkSync(join(dir, n));
      }
    }
  }

  /** A large tree's store starts the lstat helper now, so its boot overlaps loading the stat cache. */
  private warmPrefetch(): void {
    try {
      if (statSync(this.cacheFile).size >= PREFETCH_WARM_BYTES) this.prefetcher.warm();
    } catch {
      // no cache yet: the first track hashes everything anyway
    }
  }

  /** The in-memory stat cache, loaded from disk on first use. */
  private loadedCache(): StatCacheData {
    if (!this.cache) {
      this.cache = loadStatCache(this.cacheFile);
      this.diskInSync = true;
      this.diskStamp = cacheStamp(this.cacheFile);
    }
    return this.cache;
  }

  /**
   * Writes `this.cache` to disk: a journal record of `change` (what this track changed) when the files still hold
   * exactly the cache before it (nothing else wrote them since: another process sharing the store changes the
   * stamp), else whole.
   */
  private persist(change?: () => StatCacheChange): void {
    if (!this.cache) return;
    const unsaved = this.unsaved;
    this.unsaved = undefined; // written now, with `change` or within the whole cache
    this.unsavedTracks = 0;
    try {
      if (change && this.diskInSync && cacheStamp(this.cacheFile) === this.diskStamp) {
        const c = unsaved ? composeChange(unsaved, change()) : change();
        this.compactionDue = persistChange(this.cacheFile, this.cache, c, true);
      } else {
        saveStatCache(this.cacheFile, this.cache);
        this.compactionDue = false;
      }
    } catch (e) {
      this.diskInSync = false; // what the files hold is not known now: the next write is whole
      throw e;
    }
    this.diskInSync = true;
    this.diskStamp = cacheStamp(this.cacheFile);
  }

  /**
   * A guided track's change to the stat cache, kept to be written when the store is idle (`tidy`), before gc, on
   * close, with the next full walk's — or at once after MAX_UNSAVED_TRACKS tracks without a pause. Not on a step's
   * path: a cache on disk that lags behind is always safe (its entries for files changed since simply no longer
   * match, and a store opened on it walks the whole tree first).
   */
  private persistLater(change: StatCacheChange): void {
    this.unsaved = this.unsaved ? composeChange(this.unsaved, change) : change;
    if (++this.unsavedTracks >= MAX_UNSAVED_TRACKS) this.saveUnsaved();
  }

  /** Writes the guided tracks' changes not yet on disk (persistLater). */
  private saveUnsaved(): void {
    const tree = this.cache?.tree;
    if (this.unsaved) this.persist(() => emptyChange(tree));
  }

  /**
   * The put-off work (idle-task.ts), under the lock: write the stat cache's change, merge small packs, rewrite a
   * grown stat cache whole.
   */
  private tidy(): void {
    this.saveUnsaved();
    this.db.mergePacks();
    if (this.compactionDue && this.cache && this.diskInSync && cacheStamp(this.cacheFile) === this.diskStamp) {
      saveStatCache(this.cacheFile, this.cache);
      this.diskStamp = cacheStamp(this.cacheFile);
    }
    this.compactionDue = false;
  }

  private get cacheFile(): string {
    return join(this.gitdir, 'landfall-stat-cache.bin');
  }

  private checkHash(hash: string): void {
    if (!isObjectId(hash))
      throw invalid(`not a tree hash: ${JSON.stringify(hash)}`, 'pass a 40-hex tree hash returned by track()');
    this.reader.read(hash);
  }

  /**
   * Synchronous track (caller holds the lock). With `memory`, new objects go into that map and nothing is written
   * or remembered (the stat cache stays as it was: its entries must only name stored objects) — for a restore,
   * which only compares the work tree with its target. A track that throws gives the watcher's report back, so the
   * next track looks at those paths again.
   */
  private trackNow(memory?: Map<string, { type: ObjectType; content: Buffer }>, watched = false): string {
    const report = memory ? undefined : this.watcher?.take();
    try {
      return this.trackWith(report, memory, watched);
    } catch (e) {
      if (report) this.watcher?.putBack(report);
      throw e;
    }
  }

  private trackWith(
    report: WatchReport | undefined,
    memory: Map<string, { type: ObjectType; content: Buffer }> | undefined,
    watched: boolean,
  ): string {
    const cache = this.loadedCache();
    const userGit = userGitDir(this.worktree);
    const rulesKey = this.rulesKey(userGit);
    const guide = watched && report && !report.full ? this.guideNow(cache, report, rulesKey) : undefined;
    if (guide && guide.touched.size + guide.fresh.size === 0 && cache.tree) {
      this.lastTrackKind = 'none';
      this.lastSpliced = 0;
      this.lastSplicedListed = 0;
      return cache.tree;
    }
    const last = guide && this.lastWalk;
    const known = (path: string): boolean => cache.dirs.has(path);
    const sink = new ObjectSink(this.db, cache.entries.size === 0, memory);
    // A step's new trees are read back by its `changed`: once stored, keep them parsed (a first track's are too
    // many to keep).
    const newTrees: [string, Uint8Array][] = [];
    if (guide) sink.onTree = (oid, content) => newTrees.push([oid, content]);
    // A guided walk records only what it looks at (merged into the cache afterwards, walk-guide.ts); a full walk
    // records everything and replaces the cache. Both read the last track's records from the cache.
    const ctx: WalkContext = {
      root: this.worktree,
      rules: rootRules(userGit, this.opts.ignoreDefaults),
      tracked: userGit ? this.indexCache.get(userGit) : undefined,
      maxFileBytes: this.opts.maxFileBytes,
      prev: cache.entries,
      prevDirs: cache.dirs,
      prevTrees: cache.trees,
      sink,
      prefetch: undefined,
      guide,
      treeEntries: guide && ((oid) => this.reader.read(oid)),
      treeBytes: guide && ((oid) => this.stepTrees.get(oid) ?? this.db.read(oid)?.content),
      gen: guide ? undefined : ++this.fullWalks,
      startedAt: Date.now(),
      entries: new Map(),
      dirs: new Map(),
      trees: new Set(),
      skipped: last ? last.skipped.filter((f) => untouched([f.path], guide, known).length === 1) : [],
      leftOut: last ? untouched(last.leftOut, guide, known) : [],
      carry: last
        ? { leftOut: inParents(last.leftOut, (p) => p, guide), skipped: inParents(last.skipped, (f) => f.path, guide) }
        : undefined,
      hashed: 0,
      spliced: 0,
      splicedListed: 0,
      progress: this.meter,
    };
    let tree: string;
    try {
      // Started after startedAt: every prefetched stat is taken during this track.
      if (!guide) ctx.prefetch = this.prefetcher.start(this.worktree, cache.entries);
      if (!guide) this.meter.phase('walk'); // a full walk is reported; a guided one looks at a few paths
      tree = walkDir(ctx, '', false, lstatSync(this.worktree)).oid ?? EMPTY_TREE;
      if (tree === EMPTY_TREE) sink.put('tree', Buffer.alloc(0), EMPTY_TREE);
      sink.finish();
      for (const [oid, content] of newTrees) this.reader.prime(oid, content);
      if (!memory) this.stepTrees = new Map(newTrees);
    } catch (e) {
      sink.abort();
      throw e;
    } finally {
      ctx.prefetch?.end();
    }
    this.walkLeftOut = ctx.leftOut;
    if (memory) return tree;
    this.records.record(tree, ctx.leftOut);
    const gone = guide ? this.mergeWalk(cache, ctx, guide, tree) : this.replaceCache(cache, ctx, tree);
    this.watcher?.afterWalk({
      full: !guide,
      dirs: guide ? ctx.dirs : cache.dirs, // after a full walk the cache holds exactly the folders it walked
      gone,
      reported: report?.events ?? new Set(),
    });
    this.lastTrackKind = guide ? 'guided' : 'full';
    this.lastSpliced = ctx.spliced;
    this.lastSplicedListed = ctx.splicedListed;
    const clocks = { wall: Date.now(), mono: performance.now() };
    this.lastWalk = { leftOut: ctx.leftOut, skipped: ctx.skipped, rulesKey, ...clocks };
    this.lastSkipped = ctx.skipped;
    for (const s of ctx.skipped)
      this.opts.log(`snapshot: skipped ${s.path} (${s.reason}${s.size === undefined ? '' : `, ${s.size} bytes`})`);
    this.idle.poke(); // the put-off work waits for a pause after this track
    return tree;
  }

  /** After a guided walk: the cache changed in place, only the change saved. Answers the folders removed. */
  private mergeWalk(cache: StatCacheData, ctx: WalkContext, guide: WalkGuide, tree: string): string[] {
    const before = cache.tree;
    const change = mergeGuided(cache, ctx, guide, tree);
    if (tree !== before || !changesNothing(change)) this.persistLater(change);
    this.treesApprox = true;
    return change.goneDirs;
  }

  /** After a full walk: the cache brought up to date in place (stat-merge.ts), only the change saved. */
  private replaceCache(cache: StatCacheData, ctx: WalkContext, tree: string): string[] {
    const before = cache.tree;
    const change = mergeFull(
      cache,
      { gen: ctx.gen ?? 0, entries: ctx.entries, dirs: ctx.dirs, trees: ctx.trees },
      tree,
    );
    const changed = tree !== before || !changesNothing(change);
    if (changed) this.persist(() => change);
    this.treesApprox = false; // a full walk's tree set is exactly the last track's (stat-merge.ts)
    return [];
  }

  /** The user's git dir, info/exclude and index as stat'ed now ('' outside a git project). */
  private rulesKey(userGit: string | undefined): string {
    return userGit ? `${userGit}|${statKey(join(userGit, 'info/exclude'))}|${statKey(join(userGit, 'index'))}` : '';
  }

  /**
   * The last tree when a watched track would find nothing to look at (the watcher reported nothing and a guided
   * walk is allowed: trackWith's first check), else undefined. Writes nothing.
   */
  private unchangedTree(): string | undefined {
    const cache = this.cache; // loaded already (loading may repair the journal: a write, done under the lock)
    if (!cache?.tree || !this.watcher?.quiet()) return undefined;
    if (this.gcElsewhere()) return undefined; // the last tree may be gone: a locked track looks (`distrust`)
    const nothing = { events: new Set<string>(), pending: new Set<string>(), full: false };
    if (!this.guideNow(cache, nothing, this.rulesKey(userGitDir(this.worktree)))) return undefined;
    this.lastTrackKind = 'none';
    this.lastSpliced = 0;
    this.lastSplicedListed = 0;
    return cache.tree;
  }

  /**
   * `trackNow` (caller holds the lock) as one reported operation: `first-track` while the stat cache knows no tree
   * (every file is read and hashed), else `track`. Only a full walk reports (progress.ts); a guided one says nothing.
   */
  private tracked(watched: boolean): string {
    const first = this.loadedCache().tree === undefined;
    return this.meter.run(first ? 'first-track' : 'track', () => this.trackNow(undefined, watched));
  }

  /**
   * The guide for a watched track, or undefined when only a full walk is exact: no walk since the store opened
   * (the watcher knows nothing from before), the rules' files changed, or the machine was suspended since.
   */
  private guideNow(cache: StatCacheData, report: WatchReport, rulesKey: string): WalkGuide | undefined {
    const last = this.lastWalk;
    if (!last || cache.tree === undefined || last.rulesKey !== rulesKey) return undefined;
    if (Math.abs(Date.now() - last.wall - (performance.now() - last.mono)) > SUSPEND_GAP_MS) return undefined;
    if (this.watcher && !this.watcher.followsMoves && folderMoved(this.worktree, cache, report.events)) {
      // The watcher may go on naming the moved folder's files by their old paths: walk, and watch afresh.
      if (this.watcher) this.watcher.broken = true;
      return undefined;
    }
    return guideFor(report.events, report.pending, this.watcher?.backend === 'native');
  }

  /** True when the watcher runs and has reported every change finished before this call (watch.ts settle). */
  private async settled(options?: TrackOptions): Promise<boolean> {
    if (this.watcher?.broken) {
      // A failed subscription calls back no more: start a new one (its first report asks for a full walk).
      const old = this.watcher;
      this.watcher = undefined;
      this.retiredStats.delivered += old.stats.delivered;
      this.retiredStats.settleTimeouts += old.stats.settleTimeouts;
      await old.close();
      const dirs = await this.run(() => this.loadedCache().dirs);
      this.watcher = await startWatcher(this.worktree, dirs, this.opts.watchBackend);
    }
    if (!this.watcher || options?.verify === true) return false;
    const t0 = performance.now();
    const ok = await this.watcher.settle();
    this.lastSettleMs = performance.now() - t0;
    return ok;
  }

  /**
   * Snapshots the work tree; returns its tree hash (40 hex, equal to `git write-tree` for the same content). With
   * a watcher, only what it reported is looked at (walk-guide.ts); `verify` (a turn's first track) walks it all.
   */
  async track(options?: TrackOptions): Promise<string> {
    const watched = await this.settled(options);
    const same = watched ? await this.runLocal(() => this.unchangedTree()) : undefined;
    return same ?? this.run(() => this.tracked(watched));
  }

  /**
   * Forgets what the watcher reported so far, as if those events were lost (fault injection: tests and the
   * benchmark check that the next verifying track still finds every change). No-op without a watcher.
   */
  async dropWatchEvents(): Promise<void> {
    if (!this.watcher) return;
    await this.watcher.settle();
    this.watcher.dropReported();
  }

  /**
   * The watcher's counters (events delivered and settles timed out, over every subscription this store made; folders
   * watched now), undefined without a watcher.
   */
  get watchStats(): { delivered: number; settleTimeouts: number; watched: number } | undefined {
    const w = this.watcher;
    return (
      w && {
        delivered: this.retiredStats.delivered + w.stats.delivered,
        settleTimeouts: this.retiredStats.settleTimeouts + w.stats.settleTimeouts,
        watched: w.stats.watched,
      }
    );
  }

  /** True when the store runs with a watcher (opened with `watch` and it could start here). */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** The backend of the running watcher (watch.ts), undefined without one. */
  get watchBackend(): WatchBackend | undefined {
    return this.watcher?.backend;
  }

  /** Files (worktree-relative) that differ between tree `hash` and the work tree now. */
  async patch(hash: string): Promise<PatchInfo> {
    const watched = await this.settled();
    return this.run(() => {
      this.checkHash(hash);
      const now = this.tracked(watched);
      return { hash, files: this.reader.diff(hash, now).map((c) => c.path) };
    });
  }

  /** Unified diff text (git style, a/ b/ prefixes) from tree `hash` to the work tree now; '' when equal. */
  async diff(hash: string): Promise<string> {
    const watched = await this.settled();
    return this.run(() => {
      this.checkHash(hash);
      return unifiedText(this.db, this.reader.diff(hash, this.tracked(watched)), this.opts.maxFileBytes);
    });
  }

  /** Per-file diffs from tree `from` to tree `to` (status, before/after text or binary/tooLarge, line counts). */
  diffFull(from: string, to: string): Promise<FileDiff[]> {
    return this.run(() => {
      this.checkHash(from);
      this.checkHash(to);
      return this.reader.diff(from, to).map((c) => fileDiff(this.db, c, this.opts.maxFileBytes));
    });
  }

  /**
   * Paths whose entry differs from tree `from` to tree `to`, with status (Snapshots.changed): compares tree entries
   * and skips equal subtrees (git/tree-read.ts), reads no blob and does not walk the work tree. Writes nothing, so
   * it takes no lock file (objects are never changed in place; a pack another process merged away stays readable
   * through the descriptor held, and a miss re-reads the pack list).
   */
  changed(from: string, to: string): Promise<ChangedPath[]> {
    return this.runLocal(() => {
      this.checkHash(from);
      this.checkHash(to);
      return this.reader.diff(from, to).map((c) => ({ ...c, status: changeStatus(c) }));
    });
  }

  /**
   * Makes the work tree equal tree `hash` (ignored files untouched); rewrites only differing files. The work tree's
   * current state is walked in memory only (its new objects are compared, never stored: nobody holds its hash),
   * read through a throwaway TreeReader so no parsed tree outlives the operation.
   */
  restore(hash: string): Promise<RestoreReport> {
    return this.run(() =>
      this.meter.run('restore', async () => {
        this.checkHash(hash);
        const held = new Map<string, { type: ObjectType; content: Buffer }>();
        this.db.overlay = held;
        let changes: TreeChange[];
        try {
          changes = new TreeReader(this.db).diff(this.trackNow(held), hash);
        } finally {
          this.db.overlay = undefined;
        }
        const keep = keepRule(this.worktree, this.records, { leftOut: new Set(this.walkLeftOut) });
        const report = await restoreChanges(this.worktree, this.db, changes, {
          tree: hash,
          journalDir: this.journalDir,
          keep,
          progress: transactionProgress(this.meter),
        });
        this.forget([...report.restored, ...report.deleted]);
        return report;
      }),
    );
  }

  /**
   * Puts back only the files of `patches` (earliest patch per file wins; absent in its tree = deleted) — except
   * files no snapshot captured (keep.ts; judged against the last track, which a session takes right before):
   * they are reported as `kept`.
   */
  revert(patches: PatchInfo[], options: { intent?: string } = {}): Promise<RestoreReport> {
    return this.run(() =>
      this.meter.run('revert', async () => {
        const keep = keepRule(this.worktree, this.records, { lastTree: this.loadedCache().tree });
        const report = await revertFiles(this.worktree, this.db, this.reader, patches, {
          journalDir: this.journalDir,
          keep,
          ...options,
          progress: transactionProgress(this.meter),
        });
        this.forget([...report.restored, ...report.deleted]);
        return report;
      }),
    );
  }

  /**
   * Drops in-memory stat cache entries of files this store just wrote, so the next track reads them again. The
   * cache file is not rewritten: its entries for these files no longer match their new stat data anyway.
   */
  private forget(paths: string[]): void {
    const cache = this.loadedCache();
    for (const p of paths) if (cache.entries.delete(p)) this.diskInSync = false;
  }

  /**
   * Which of `items` a revert must leave alone (keep.ts): each names a path and the tree whose version of it is
   * wanted (absent there = removal). Judged as `revert` judges, so a preview agrees with the real run.
   */
  notCaptured(items: { path: string; tree: string }[]): Promise<string[]> {
    return this.run(() => {
      const keep = keepRule(this.worktree, this.records, { lastTree: this.loadedCache().tree });
      return items
        .filter((i) => {
          const e = this.reader.lookup(i.tree, i.path);
          return keep(i.path, i.tree, e === undefined || e.mode === '40000');
        })
        .map((i) => i.path);
    });
  }

  /** Every file of tree `hash` with mode and blob id, in tree order. */
  listFiles(hash: string): Promise<TreeFile[]> {
    return this.run(() => {
      this.checkHash(hash);
      return this.reader.files(hash);
    });
  }

  /**
   * Bytes of `path` (worktree-relative) in tree `hash` (a link's target text), or undefined when absent. A copy
   * the caller owns: the pack reader caches objects it read (delta bases), so handing out its buffer would let a
   * caller's edit change what later reads, restores and deltas return.
   */
  readFile(hash: string, path: string): Promise<Uint8Array | undefined> {
    return this.run(() => {
      this.checkHash(hash);
      const e = this.reader.lookup(hash, path.replace(/^\.\//, ''));
      if (!e || e.mode === '40000') return undefined;
      const content = this.db.read(e.oid)?.content;
      return content && Buffer.from(content);
    });
  }

  /** Removes objects unreachable from `keep` (and from the last track) that are older than the retention. */
  gc(options: GcOptions): Promise<GcReport> {
    return this.run(() =>
      this.meter.run('gc', () => {
        const cache = this.loadedCache();
        for (const k of options.keep)
          if (!isObjectId(k))
            throw invalid(`not a tree hash: ${JSON.stringify(k)}`, 'pass tree hashes returned by track()');
        // After guided walks the tree set may name trees gc is about to prune: make it exactly the last track's.
        if (this.treesApprox && cache.tree) {
          cache.trees = treeIds(this.reader, cache.tree);
          this.treesApprox = false;
          this.diskInSync = false;
        }
        // The cache file must name only objects gc keeps: bring it in line with this store's cache first — also
        // when another store wrote it since (its entries would name objects this gc does not know to keep).
        this.saveUnsaved();
        if (!this.diskInSync || cacheStamp(this.cacheFile) !== this.diskStamp) this.persist();
        const keep = cache.tree ? [...options.keep, cache.tree] : options.keep;
        // The blobs the stat cache names are kept too: its last tree may be gone (`distrust`), and a track reuses
        // an entry's blob without storing it again.
        const named = Array.from(cache.entries.values(), (e) => e.oid);
        const retention = options.olderThanMs ?? DEFAULT_RETENTION_MS;
        let removing = false;
        let report: GcReport;
        try {
          report = runGc(this.db, this.reader, keep, retention, {
            meter: this.meter,
            alsoKeep: named,
            beforeRemove: (doomed) => {
              this.stampGc(doomed);
              removing = true;
            },
          });
        } catch (e) {
          if (removing) this.gcStamp = ''; // the list is left in the gc file: this store's next operation finishes it
          throw e;
        }
        if (removing) this.stampGc(); // finished
        this.records.prune(new Set(keep), retention);
        this.reader.clear();
        this.stepTrees.clear();
        return report;
      }),
    );
  }

  /** Waits for running operations, then releases file handles. Later calls fail with `unavailable`. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.run(() => {
      try {
        if (this.gcElsewhere()) this.distrust(); // what is saved must name only objects still stored
        this.saveUnsaved();
      } catch (e) {
        // An older cache on disk is safe (see persistLater): the store closes all the same.
        this.opts.log(`snapshot: stat cache not saved on close: ${(e as Error).message}`);
      }
    });
    this.closed = true;
    this.idle.cancel();
    this.lock.dispose();
    await this.watcher?.close();
    this.db.close();
    // Nothing reads them any more: the stat cache (~60 MB of heap for 100,000 files) and the parsed trees go now,
    // not when the caller lets go of the closed store (a reopened store would load its own copy beside them).
    this.cache = undefined;
    this.lastWalk = undefined;
    this.walkLeftOut = [];
    this.reader.clear();
    this.stepTrees.clear();
  }
}
