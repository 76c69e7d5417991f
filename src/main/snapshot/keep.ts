/**
 * The rule that keeps restore and revert from deleting (or overwriting) a file no snapshot captured (left-out.ts):
 * a path is KEPT — left exactly as it is and reported `not_captured` — when something exists there on disk and
 *   - the work tree's current state did not capture it (ignored now, over the size limit, unreadable): its bytes
 *     are in no snapshot, so neither a removal nor an overwrite could be undone; or
 *   - it is to be removed because the target tree lacks it, and the target tree may have left it out: "absent"
 *     there does not mean "did not exist then" (an ignored `secrets.env` a step made visible).
 * Where nothing exists on disk, there is nothing to lose and the operation goes ahead.
 */
import { lstatSync } from 'node:fs';
import type { LeftOutRecords } from './left-out';

/** Whether the list of left-out paths of one walk (files, folders ending in `/`) covers `path`. */
export function listCovers(leftOut: ReadonlySet<string>, path: string): boolean {
  if (leftOut.has(path)) return true;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1))
    if (leftOut.has(path.slice(0, i + 1))) return true;
  return false;
}

/** `(path, targetTree, removing) => keep?` for the work tree at `root` (see the module docstring). */
export type KeepRule = (path: string, targetTree: string, removing: boolean) => boolean;

/**
 * The rule for `root`: `nowLeftOut` is what the current state's walk left out when the caller has it (restore),
 * else the record of `lastTree` (the store's last track; none → every present file counts as not captured).
 */
export function keepRule(
  root: string,
  records: LeftOutRecords,
  now: { leftOut: ReadonlySet<string> } | { lastTree: string | undefined },
): KeepRule {
  const nowCovers = (path: string): boolean =>
    'leftOut' in now ? listCovers(now.leftOut, path) : now.lastTree === undefined || records.covers(now.lastTree, path);
  return (path, targetTree, removing) => {
    let st;
    try {
      st = lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
    } catch {
      return false; // a file where a folder is on the way: nothing is at this path
    }
    if (!st || st.isDirectory()) return false;
    if (nowCovers(path)) return true;
    return removing && records.covers(targetTree, path);
  };
}
