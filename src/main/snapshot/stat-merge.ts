/**
 * After a full walk (walk.ts with a walk number, `gen`): brings the stat cache up to date in place and answers what
 * changed, for the journal (stat-cache.ts). The walk stamped every record it found as it was with its number and
 * recorded only what differs, so a walk of 100,000 unchanged files copies no map and allocates no record: its
 * garbage dies young instead of piling up in the old generation until a major collection (the 100k benchmark's
 * peak RSS). The guided walk's counterpart is walk-guide.ts `mergeGuided`.
 */
import { emptyChange, type DirRecord, type StatCacheChange, type StatCacheData, type StatEntry } from './stat-entries';

/** What a full walk recorded: changed or new records (stamped `gen`), and every tree id of the new tree. */
export interface FullWalkResult {
  gen: number;
  entries: ReadonlyMap<string, StatEntry>;
  dirs: ReadonlyMap<string, DirRecord>;
  trees: Set<string>;
}

/**
 * Puts the walk's changed records into `cache`, removes every record the walk neither stamped nor recorded (gone,
 * ignored now, or no longer of its kind), takes the walk's tree ids as the cache's and `tree` as its root tree.
 * Answers the change (empty lists when the walk found everything as it was). Pure in-memory work that cannot fail
 * midway; run it only after the walk's objects are stored (the cache must name stored objects only).
 */
export function mergeFull(cache: StatCacheData, walked: FullWalkResult, tree: string): StatCacheChange {
  const change = emptyChange(tree);
  for (const [k, v] of walked.entries) {
    cache.entries.set(k, v);
    change.entries.set(k, v);
  }
  for (const [k, v] of walked.dirs) {
    cache.dirs.set(k, v);
    change.dirs.set(k, v);
  }
  // Deleting the current key while iterating a Map is safe: iteration goes on with the next one.
  for (const [k, v] of cache.entries)
    if (v.seen !== walked.gen && !walked.entries.has(k)) {
      cache.entries.delete(k);
      change.goneEntries.push(k);
    }
  for (const [k, v] of cache.dirs)
    if (v.seen !== walked.gen && !walked.dirs.has(k)) {
      cache.dirs.delete(k);
      change.goneDirs.push(k);
    }
  for (const t of walked.trees) if (!cache.trees.has(t)) change.trees.add(t);
  for (const t of cache.trees) if (!walked.trees.has(t)) change.goneTrees.push(t);
  cache.trees = walked.trees;
  cache.tree = tree;
  return change;
}
