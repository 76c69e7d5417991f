/**
 * The guided track walk: what the watcher reported (watch.ts) turned into which folders the walk enters. A
 * reported path's folders are listed again ('' = the work-tree root included); a reported path is lstat'ed (and
 * hashed when its stat data changed), and walked whole when it is or was a folder (a folder created or moved in
 * may hold files created before the watcher saw the folder). Everything else keeps its stat-cache entry, folder
 * record and tree id without a system call: its bytes, names and mode cannot have changed unreported.
 *
 * Rules stay exact because a change to any `.gitignore`, to info/exclude or to the user's index makes the store
 * walk the whole tree instead (store.ts): the ignore decisions of an unreported path are then those of last time.
 */
import type { TreeReader } from './git/tree-read';
import type { DirRecord, StatEntry } from './stat-entries';

/** Where a guided walk goes: folders to list again and paths to look at again. */
export interface WalkGuide {
  /** Every folder holding a reported path ('' = root), listed again. */
  dirs: Set<string>;
  /** The reported paths themselves (worktree-relative); a folder among them is walked whole. */
  touched: Set<string>;
}

/** The guide for reported `paths`; undefined when a full walk is needed (a `.gitignore` among them). */
export function guideFor(paths: Set<string>): WalkGuide | undefined {
  const dirs = new Set<string>(['']);
  for (const p of paths) {
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (name === '.gitignore') return undefined;
    for (let s = p.lastIndexOf('/'); s > 0; s = p.lastIndexOf('/', s - 1)) {
      const d = p.slice(0, s);
      if (dirs.has(d)) break;
      dirs.add(d);
    }
  }
  return { dirs, touched: paths };
}

/** True when `path` is walked as in a full walk: a reported path, or inside a reported folder. */
export function walkedWhole(guide: WalkGuide, path: string): boolean {
  if (guide.touched.has(path)) return true;
  for (let s = path.lastIndexOf('/'); s > 0; s = path.lastIndexOf('/', s - 1))
    if (guide.touched.has(path.slice(0, s))) return true;
  return false;
}

/**
 * Before a guided walk: drops the carried-over entries and folder records of every reported path (a reported
 * folder: its whole subtree), so what is gone leaves nothing stale and what is there is put back by the walk.
 * Every removal is reported for the removed path itself (inotify and its peers report each name that leaves a
 * watched folder), so nothing unreported can have vanished.
 */
export function forgetTouched(entries: Map<string, StatEntry>, dirs: Map<string, DirRecord>, guide: WalkGuide): void {
  for (const p of guide.touched) {
    entries.delete(p);
    if (!dirs.delete(p)) continue;
    const prefix = `${p}/`;
    for (const k of entries.keys()) if (k.startsWith(prefix)) entries.delete(k);
    for (const k of dirs.keys()) if (k.startsWith(prefix)) dirs.delete(k);
  }
}

/**
 * Of last walk's `paths` (left-out paths, folders ending in '/', or skipped files), those a guided walk does not
 * look at again: not in a folder it lists again (it records those afresh), not inside a reported path.
 */
export function untouched(paths: string[], guide: WalkGuide): string[] {
  return paths.filter((p) => {
    const path = p.endsWith('/') ? p.slice(0, -1) : p;
    const s = path.lastIndexOf('/');
    return !guide.dirs.has(s < 0 ? '' : path.slice(0, s)) && !walkedWhole(guide, path);
  });
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
