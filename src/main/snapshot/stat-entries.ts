/**
 * What the stat cache holds (stat-cache.ts persists it) and the rules for trusting it: a file whose lstat equals
 * its entry reuses the entry's blob id without being read; a folder whose lstat equals its record reuses the
 * record's listing. A record marked racy (its mtime was within RACY_MS of the track that took it) is never
 * trusted: a second change inside the same timestamp tick would otherwise go unseen (git's racy-clean problem).
 */

/** A file's stat data and blob id. `racy` forces a re-hash next time. */
export interface StatEntry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  oid: string;
  racy: boolean;
  /**
   * The number of the full walk that last found this entry as it is (WalkContext.gen; 0: none since loading). Kept
   * in memory only: after a full walk, entries of the cache not stamped with its number are gone (stat-merge.ts).
   */
  seen: number;
}

/** A folder's stat data, listing and resulting tree. */
export interface DirRecord {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Entry names, each prefixed `d` (folder) or `f`, joined by '/' (which no name contains). */
  names: string;
  oid: string | undefined;
  count: number;
  racy: boolean;
  /** As StatEntry.seen: the full walk that last found this folder record as it is (memory only). */
  seen: number;
}

/** Margin (ms) under which an mtime counts as "too recent to trust" (covers coarse 1 s filesystem clocks). */
export const RACY_MS = 1000;

/** Contents of the cache file. */
export interface StatCacheData {
  tree: string | undefined;
  trees: Set<string>;
  entries: Map<string, StatEntry>;
  dirs: Map<string, DirRecord>;
}

/**
 * What one track changed in the cache (a journal record of stat-cache.ts): entries, folder records and tree ids put
 * or added, paths and tree ids removed, and the new root tree.
 */
export interface StatCacheChange {
  tree: string | undefined;
  entries: Map<string, StatEntry>;
  dirs: Map<string, DirRecord>;
  trees: Set<string>;
  goneEntries: string[];
  goneDirs: string[];
  goneTrees: string[];
}

/** A change that changes nothing yet, for root tree `tree`. */
export function emptyChange(tree: string | undefined): StatCacheChange {
  return { tree, entries: new Map(), dirs: new Map(), trees: new Set(), goneEntries: [], goneDirs: [], goneTrees: [] };
}

/**
 * `a` followed by `b` as one change — what applying `a`, then `b`, to a cache does: `b`'s puts and removals win
 * over `a`'s, and no key is both put and removed (a journal record applies its puts before its removals). Changes
 * `a`'s maps and sets in place, gives it new `gone…` arrays (arrays handed out before stay as they were), returns it.
 */
export function composeChange(a: StatCacheChange, b: StatCacheChange): StatCacheChange {
  a.goneEntries = followedBy(a.entries, a.goneEntries, b.entries, b.goneEntries);
  a.goneDirs = followedBy(a.dirs, a.goneDirs, b.dirs, b.goneDirs);
  const goneTrees = new Set(a.goneTrees);
  for (const t of b.trees) {
    a.trees.add(t);
    goneTrees.delete(t);
  }
  for (const t of b.goneTrees) {
    a.trees.delete(t);
    goneTrees.add(t);
  }
  a.goneTrees = [...goneTrees];
  a.tree = b.tree;
  return a;
}

/** `put` / `gone` followed by `nextPut` / `nextGone` (composeChange): updates `put`, answers the new removals. */
function followedBy<V>(put: Map<string, V>, gone: string[], nextPut: Map<string, V>, nextGone: string[]): string[] {
  const out = new Set(gone);
  for (const [k, v] of nextPut) {
    put.set(k, v);
    out.delete(k);
  }
  for (const k of nextGone) {
    put.delete(k);
    out.add(k);
  }
  return [...out];
}

/** True when `change` puts or removes nothing (the root tree aside). */
export function changesNothing(c: StatCacheChange): boolean {
  return (
    c.entries.size + c.dirs.size + c.trees.size + c.goneEntries.length + c.goneDirs.length + c.goneTrees.length === 0
  );
}

/**
 * True when two folder records are equal in every field but `seen` (the walk that last found it as it was); a racy
 * mark cleared counts as a change.
 */
export function sameDir(a: DirRecord | undefined, b: DirRecord): boolean {
  return (
    a !== undefined &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.names === b.names &&
    a.oid === b.oid &&
    a.count === b.count &&
    a.racy === b.racy
  );
}

/** An empty cache (every file is hashed, every folder listed). */
export function emptyStatCache(): StatCacheData {
  return { tree: undefined, trees: new Set(), entries: new Map(), dirs: new Map() };
}

interface StatLike {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** True when a fresh lstat matches a cached file entry closely enough to reuse its blob id. */
export function statMatches(e: StatEntry | undefined, st: StatLike): boolean {
  return (
    e !== undefined &&
    !e.racy &&
    e.size === st.size &&
    e.mtimeMs === st.mtimeMs &&
    e.ctimeMs === st.ctimeMs &&
    e.ino === st.ino &&
    e.mode === st.mode
  );
}

/** True when a folder's lstat matches its record, so its cached listing is still its listing. */
export function dirMatches(d: DirRecord | undefined, st: StatLike): boolean {
  return d !== undefined && !d.racy && d.mtimeMs === st.mtimeMs && d.ctimeMs === st.ctimeMs && d.ino === st.ino;
}
