/**
 * Reading trees out of the store: parsed trees (cached, bounded), path lookup, flattening to a file list, and
 * the tree diff. The diff walks both trees together and skips any pair of subtrees with equal ids, so its cost
 * follows the size of the change, not the size of the project. A folder↔file switch at one name shows as the
 * deletion of one side's files and the addition of the other's.
 */
import { LandfallFailure } from '../../../shared/errors';
import type { ObjectDb } from './object-db';
import { EMPTY_TREE } from './object-id';
import { compareEntries, encodedEntries, parseTree, type EntryMode, type TreeEntry } from './tree';

/** A file (blob or link) in a tree. */
export interface TreeFile {
  path: string;
  mode: EntryMode;
  oid: string;
}

/** One path whose entry differs between two trees. `before`/`after` absent = absent on that side. */
export interface TreeChange {
  path: string;
  before?: { mode: EntryMode; oid: string };
  after?: { mode: EntryMode; oid: string };
}

/**
 * How a path differs between two trees (git's name-status letters A, D, M, T): `added` / `deleted` — absent on one
 * side; `type-changed` — a file became a symbolic link or back (100644/100755 ↔ 120000); `mode-changed` — the
 * same bytes, only the executable bit differs (100644 ↔ 100755); `modified` — other bytes (the mode may differ too).
 */
export type ChangeStatus = 'added' | 'deleted' | 'modified' | 'type-changed' | 'mode-changed';

/** A TreeChange with its status (`before` absent: added; `after` absent: deleted). */
export interface ChangedPath extends TreeChange {
  status: ChangeStatus;
}

/** A link (120000), a submodule commit (160000) or a regular file (100644, 100755): what a type change switches. */
function kindOf(mode: EntryMode): string {
  return mode === '100755' ? '100644' : mode;
}

/** The status of one tree change (see ChangeStatus). Pure. */
export function changeStatus(c: TreeChange): ChangeStatus {
  if (!c.before) return 'added';
  if (!c.after) return 'deleted';
  if (kindOf(c.before.mode) !== kindOf(c.after.mode)) return 'type-changed';
  return c.before.oid === c.after.oid ? 'mode-changed' : 'modified';
}

const CACHE_LIMIT = 20_000;

/** Tree access over an ObjectDb. */
export class TreeReader {
  private readonly cache = new Map<string, TreeEntry[]>();

  constructor(private readonly db: ObjectDb) {}

  /** Forgets parsed trees (after gc removed objects, a cached tree must not outlive its object). */
  clear(): void {
    this.cache.clear();
  }

  /**
   * Remembers tree `oid` whose bytes a track just wrote, so reading it back (a step's `changed`) parses them
   * instead of reading the pack. `content` must be exactly the tree object's content (what `oid` hashes).
   */
  prime(oid: string, content: Uint8Array): void {
    if (this.cache.has(oid)) return;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    const known = encodedEntries(content);
    this.cache.set(
      oid,
      known ? [...known] : parseTree(Buffer.from(content.buffer, content.byteOffset, content.byteLength)),
    );
  }

  /** Entries of tree `oid`. Throws LandfallFailure `not_found` when the store lacks it. */
  read(oid: string): TreeEntry[] {
    const hit = this.cache.get(oid);
    if (hit) return hit;
    if (oid === EMPTY_TREE) return [];
    const o = this.db.read(oid);
    if (!o || o.type !== 'tree') {
      throw new LandfallFailure({
        code: 'not_found',
        message: `snapshot ${oid} is not in the store`,
        hint: 'take a new snapshot with track(); this one was never taken here or was removed by gc',
        data: { hash: oid },
      });
    }
    const entries = parseTree(o.content);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(oid, entries);
    return entries;
  }

  /** The entry at `path` ('a/b/c') in tree `root`, or undefined. */
  lookup(root: string, path: string): TreeEntry | undefined {
    const parts = path.split('/');
    let tree = root;
    for (let i = 0; i < parts.length; i++) {
      const e = this.read(tree).find((x) => x.name === parts[i]);
      if (!e) return undefined;
      if (i === parts.length - 1) return e;
      if (e.mode !== '40000') return undefined;
      tree = e.oid;
    }
    return undefined;
  }

  /** Every file (blob or link) under tree `oid`, with paths prefixed by `prefix`. */
  files(oid: string, prefix = ''): TreeFile[] {
    const out: TreeFile[] = [];
    const visit = (t: string, pre: string): void => {
      for (const e of this.read(t)) {
        const path = pre === '' ? e.name : `${pre}/${e.name}`;
        if (e.mode === '40000') visit(e.oid, path);
        else out.push({ path, mode: e.mode, oid: e.oid });
      }
    };
    visit(oid, prefix);
    return out;
  }

  /** Files that differ from tree `a` to tree `b`, skipping equal subtrees. Sorted in tree order. */
  diff(a: string, b: string): TreeChange[] {
    const out: TreeChange[] = [];
    this.diffInto(a, b, '', out);
    return out;
  }

  private diffInto(a: string | undefined, b: string | undefined, pre: string, out: TreeChange[]): void {
    if (a === b) return;
    const left = a ? this.read(a) : [];
    const right = b ? this.read(b) : [];
    const byName = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
    for (const e of left) byName.set(e.name, [e, undefined]);
    for (const e of right) byName.set(e.name, [byName.get(e.name)?.[0], e]);
    const names = [...byName.keys()].sort((x, y) =>
      compareEntries({ name: x, mode: '100644', oid: '' }, { name: y, mode: '100644', oid: '' }),
    );
    for (const name of names) {
      const [l, r] = byName.get(name) as [TreeEntry | undefined, TreeEntry | undefined];
      if (l && r && l.mode === r.mode && l.oid === r.oid) continue;
      const path = pre === '' ? name : `${pre}/${name}`;
      const lt = l?.mode === '40000' ? l.oid : undefined;
      const rt = r?.mode === '40000' ? r.oid : undefined;
      if (lt || rt) this.diffInto(lt, rt, path, out);
      const lb = l && l.mode !== '40000' ? l : undefined;
      const rb = r && r.mode !== '40000' ? r : undefined;
      if (lb || rb) {
        // Built whole: a property added afterwards gave each change its own property array (4 MB on 100,000).
        const before = lb && { mode: lb.mode, oid: lb.oid };
        const after = rb && { mode: rb.mode, oid: rb.oid };
        out.push(before ? (after ? { path, before, after } : { path, before }) : { path, after });
      }
    }
  }
}
