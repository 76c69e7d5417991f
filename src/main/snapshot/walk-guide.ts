/**
 * The guided track walk: what the watcher reported (watch.ts) turned into which folders the walk enters. A
 * reported path's folders are entered ('' = the work-tree root included): the one holding it is lstat'ed and
 * listed again (from its record when its stat data is unchanged — then, below the root, only the reported names in
 * it are looked at: walk.ts `listedAsBefore`), the ones above keep their record's names and
 * stat data without a system call unless a path directly in them was reported too; a reported path is lstat'ed (and
 * hashed when its stat data changed), and walked whole when it is or was a folder (a folder created or moved in
 * may hold files created before the watcher saw the folder). A pending folder (its watch is newer than the walk
 * that last read it) is listed again and its own entries are looked at: its files lstat'ed, its subfolders entered
 * (their files kept unless they are pending or reported too). Everything else keeps its stat-cache entry, folder
 * record and tree id without a system call: its bytes, names and mode cannot have changed unreported.
 *
 * Rules stay exact because a change to any `.gitignore`, to info/exclude or to the user's index makes the store
 * walk the whole tree instead (store.ts): the ignore decisions of an unreported path are then those of last time.
 */
import type { TreeReader } from './git/tree-read';
import {
  emptyChange,
  sameDir,
  type DirRecord,
  type StatCacheChange,
  type StatCacheData,
  type StatEntry,
} from './stat-entries';

/** Where a guided walk goes: folders to list again and paths to look at again. */
export interface WalkGuide {
  /** Every folder holding a reported path, and every pending folder ('' = root), listed again. */
  dirs: Set<string>;
  /** The reported paths themselves (worktree-relative); a folder among them is walked whole. */
  touched: Set<string>;
  /** Pending folders: their own entries are looked at again. */
  fresh: Set<string>;
  /**
   * Folders holding a reported path directly ('' = root): only their listing can have changed. Every other folder
   * of `dirs` keeps the names and stat data of its record (no lstat, no readdir): a name added to, removed from or
   * renamed in a watched folder is reported under that folder, and a folder replaced or moved is reported by name
   * in its parent (then it is walked whole).
   */
  parents: Set<string>;
  /** The names of each folder's subfolders that are in `dirs` ('' = root): where a spliced folder's walk goes. */
  below: Map<string, string[]>;
  /** The names reported directly in each folder of `parents`: what a listed-as-before folder looks at again. */
  named: Map<string, string[]>;
}

/** Adds folder `d` to `dirs` and its name to its parent's `below`; false when it was there already. */
function addDir(dirs: Set<string>, below: Map<string, string[]>, d: string): boolean {
  if (d === '' || dirs.has(d)) return false;
  dirs.add(d);
  const s = d.lastIndexOf('/');
  const parent = s < 0 ? '' : d.slice(0, s);
  const names = below.get(parent);
  if (names) names.push(d.slice(s + 1));
  else below.set(parent, [d.slice(s + 1)]);
  return true;
}

/** Adds the folders holding `p` to `dirs`. */
function addParents(dirs: Set<string>, below: Map<string, string[]>, p: string): void {
  for (let s = p.lastIndexOf('/'); s > 0; s = p.lastIndexOf('/', s - 1)) if (!addDir(dirs, below, p.slice(0, s))) break;
}

/**
 * The guide for reported paths `events` and pending folders `pending`; undefined when a full walk is needed (a
 * `.gitignore` among the reported paths). `keepListings` (per-folder inotify only, whose events name every listing
 * change under its own folder): folders with no path reported directly in them keep their records; otherwise every
 * folder on the way is listed again (a recursive backend may coalesce a create + rename into one event elsewhere).
 */
export function guideFor(
  events: Set<string>,
  pending: Set<string> = new Set(),
  keepListings = true,
): WalkGuide | undefined {
  const dirs = new Set<string>(['']);
  const below = new Map<string, string[]>();
  const parents = new Set<string>();
  const named = new Map<string, string[]>();
  for (const p of events) {
    const s = p.lastIndexOf('/');
    const name = p.slice(s + 1);
    if (name === '.gitignore') return undefined;
    const folder = s < 0 ? '' : p.slice(0, s);
    parents.add(folder);
    const names = named.get(folder);
    if (names) names.push(name);
    else named.set(folder, [name]);
    addParents(dirs, below, p);
  }
  for (const p of pending) {
    addDir(dirs, below, p);
    addParents(dirs, below, p);
  }
  return { dirs, touched: events, fresh: pending, parents: keepListings ? parents : new Set(dirs), below, named };
}

/**
 * True when a guided walk splices folder `path` (walk.ts `splicedDir`): it is on the way to a reported path but
 * nothing was reported directly in it, it is not pending, not walked whole, not the root, and the last track
 * recorded it (`known`). Its listing is then as last time, so its last tree is taken as it is and only its
 * subfolders in `dirs` are entered — the store keeps what the last walk left out in it (`untouched`).
 */
export function spliced(guide: WalkGuide, path: string, known: (path: string) => boolean): boolean {
  return (
    path !== '' &&
    guide.dirs.has(path) &&
    !guide.parents.has(path) &&
    !guide.fresh.has(path) &&
    known(path) &&
    !walkedWhole(guide, path)
  );
}

/**
 * True when `path` is looked at as in a full walk: a reported path, inside a reported folder, or an entry of a
 * pending folder.
 */
export function walkedWhole(guide: WalkGuide, path: string): boolean {
  if (guide.touched.has(path)) return true;
  const s0 = path.lastIndexOf('/');
  if (guide.fresh.size > 0 && guide.fresh.has(s0 < 0 ? '' : path.slice(0, s0))) return true;
  for (let s = s0; s > 0; s = path.lastIndexOf('/', s - 1)) if (guide.touched.has(path.slice(0, s))) return true;
  return false;
}

/** What a guided walk recorded: the files and folders it looked at, and the tree ids it produced or kept. */
export interface GuidedResult {
  entries: ReadonlyMap<string, StatEntry>;
  dirs: ReadonlyMap<string, DirRecord>;
  trees: ReadonlySet<string>;
}

/**
 * After a guided walk (which wrote only what it looked at, and read the last track's records from `cache`): brings
 * `cache` up to date in place and answers what changed — the stat cache is never copied, so the cost follows the
 * change. First every record under a reported path that the walk did not record again is removed (gone, ignored
 * now, or no longer a folder; a reported folder's old subtree is found through its old listings), then what the
 * walk recorded is put, the tree ids added and the root tree set. Nothing unreported can have vanished: every
 * removal is reported for the removed path itself (inotify and its peers report each name that leaves a watched
 * folder). Pure in-memory work that cannot fail midway, so a track that throws leaves the cache as it was.
 */
export function mergeGuided(
  cache: StatCacheData,
  walked: GuidedResult,
  guide: WalkGuide,
  tree: string,
): StatCacheChange {
  const change = emptyChange(tree);
  for (const p of guide.touched) dropStale(cache, walked, p, change);
  for (const p of guide.fresh) if (walked.dirs.has(p)) dropStaleEntries(cache, walked, p, change);
  for (const [k, v] of walked.entries)
    if (cache.entries.get(k) !== v) {
      cache.entries.set(k, v);
      change.entries.set(k, v);
    }
  for (const [k, v] of walked.dirs)
    if (!sameDir(cache.dirs.get(k), v)) {
      cache.dirs.set(k, v);
      change.dirs.set(k, v);
    }
  for (const t of walked.trees)
    if (!cache.trees.has(t)) {
      cache.trees.add(t);
      change.trees.add(t);
    }
  cache.tree = tree;
  return change;
}

/** Removes the records of the entries of folder `path` (looked at again, pending) that the walk did not record. */
function dropStaleEntries(cache: StatCacheData, walked: GuidedResult, path: string, change: StatCacheChange): void {
  const rec = cache.dirs.get(path);
  if (!rec || rec.names === '') return;
  for (const n of rec.names.split('/')) {
    const p = path === '' ? n.slice(1) : `${path}/${n.slice(1)}`;
    if (!walked.entries.has(p) && cache.entries.delete(p)) change.goneEntries.push(p);
    if (cache.dirs.has(p) && !walked.dirs.has(p)) dropStale(cache, walked, p, change);
  }
}

/** Removes the records of `path` and (through its old listing) of everything under it that the walk did not record. */
function dropStale(cache: StatCacheData, walked: GuidedResult, path: string, change: StatCacheChange): void {
  if (!walked.entries.has(path) && cache.entries.delete(path)) change.goneEntries.push(path);
  const rec = cache.dirs.get(path);
  if (!rec) return;
  if (!walked.dirs.has(path)) {
    cache.dirs.delete(path);
    change.goneDirs.push(path);
  }
  if (rec.names === '') return;
  // Either kind, whatever the old listing said: a name may have switched between file and folder since.
  for (const n of rec.names.split('/'))
    dropStale(cache, walked, path === '' ? n.slice(1) : `${path}/${n.slice(1)}`, change);
}

/**
 * Of last walk's `paths` (left-out paths, folders ending in '/', or skipped files), those a guided walk does not
 * look at again, so the walk's own list starts with them: not in a folder it lists again (a folder of `dirs` that
 * is not spliced, or one walked whole — an entry of a pending folder: it records those afresh), not a folder it
 * enters (in `dirs`), not inside a reported path. `known`: the folders the last track recorded (as for `spliced`).
 */
export function untouched(paths: string[], guide: WalkGuide, known: (path: string) => boolean): string[] {
  return paths.filter((p) => {
    const path = p.endsWith('/') ? p.slice(0, -1) : p;
    if (guide.dirs.has(path)) return false;
    const s = path.lastIndexOf('/');
    const folder = s < 0 ? '' : path.slice(0, s);
    if (guide.dirs.has(folder) && !spliced(guide, folder, known)) return false;
    if (folder !== '' && walkedWhole(guide, folder)) return false;
    return !walkedWhole(guide, path);
  });
}

/**
 * Of last walk's `items` (left-out paths, folders ending in '/', or skipped files; `path` gives each one's path),
 * those directly in a folder of `guide.parents` that the walk does not look at again (not a folder it enters, not
 * walked whole), grouped by that folder: what a folder listed as before takes over from the last walk (walk.ts
 * `splicedDir`, `listedAsBefore`) — `untouched` leaves them out, as a folder listed again records them afresh.
 */
export function inParents<T>(items: readonly T[], path: (item: T) => string, guide: WalkGuide): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const p = path(item);
    const rel = p.endsWith('/') ? p.slice(0, -1) : p;
    const s = rel.lastIndexOf('/');
    const folder = s < 0 ? '' : rel.slice(0, s);
    if (!guide.parents.has(folder) || guide.dirs.has(rel) || walkedWhole(guide, rel)) continue;
    const list = out.get(folder);
    if (list) list.push(item);
    else out.set(folder, [item]);
  }
  return out;
}

/** Every tree id reachable from tree `root` (itself included): the exact tree set after guided walks. */
export function treeIds(reader: TreeReader, root: string): Set<string> {
  const out = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const oid = stack.pop() as string;
    if (out.has(oid)) continue;
    out.add(oid);
    for (const e of reader.read(oid)) if (e.mode === '40000') stack.push(e.oid);
  }
  return out;
}
