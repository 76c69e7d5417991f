/**
 * Garbage collection (isomorphic-git has none). Marks every object reachable from the kept trees and from every
 * tree younger than the retention (as git keeps what recent objects reach: a young tree is whole or gone, never
 * left pointing at a removed older blob), then:
 * loose objects that are unmarked and older than the retention are deleted; a pack older than the retention
 * that holds unmarked objects is rewritten with only its marked objects (loose copies when few), then deleted.
 * Objects younger than the retention survive either way, so a track running in another process just before is
 * never robbed of its fresh objects.
 *
 * Progress (progress.ts), when a meter is given: `mark` (objects reached, no total), `prune` (loose objects looked
 * at, of all of them), `repack` (objects of the packs being rewritten, of all of them).
 */
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ObjectDb } from './git/object-db';
import { ObjectSink } from './git/object-db';
import type { TreeReader } from './git/tree-read';
import type { GcReport } from './types';
import type { ProgressMeter } from './progress';

/** What gc needs of the store's meter. */
type GcMeter = Pick<ProgressMeter, 'phase' | 'tick'>;

/**
 * Ids reachable from `roots` (trees and their blobs), each blob with the first path it was met at (so a
 * rewritten pack can store it as a delta against similar files again). Unknown roots are skipped.
 */
function mark(
  reader: TreeReader,
  roots: string[],
  alsoKeep: Iterable<string>,
  meter?: GcMeter,
): Map<string, string | undefined> {
  const seen = new Map<string, string | undefined>();
  const visit = (t: string, prefix: string): void => {
    if (seen.has(t)) return;
    seen.set(t, undefined);
    meter?.tick(1, 0);
    for (const e of reader.read(t)) {
      if (e.mode === '40000') visit(e.oid, `${prefix}${e.name}/`);
      else if (!seen.has(e.oid)) {
        seen.set(e.oid, `${prefix}${e.name}`);
        meter?.tick(1, 0);
      }
    }
  };
  for (const r of roots) {
    try {
      visit(r, '');
    } catch {
      seen.delete(r); // a kept hash the store never had: nothing to keep under it
    }
  }
  for (const id of alsoKeep) if (!seen.has(id)) seen.set(id, undefined);
  return seen;
}

/** Trees written after `cutoff` (ms since the epoch): loose ones, and those of packs written since. */
function youngTrees(db: ObjectDb, loose: [string, string][], cutoff: number): string[] {
  const out: string[] = [];
  for (const [dir, rest] of loose) {
    try {
      if (statSync(join(db.objectsDir, dir, rest)).mtimeMs > cutoff && db.read(dir + rest)?.type === 'tree')
        out.push(dir + rest);
    } catch {
      // gone meanwhile, or unreadable: nothing to keep under it
    }
  }
  for (const pack of db.packFiles) {
    if (statSync(`${pack.base}.pack`).mtimeMs <= cutoff) continue;
    for (const id of pack.ids()) if (pack.typeOf(id) === 'tree') out.push(id);
  }
  return out;
}

/** Every loose object's folder name (2 hex) and file name. */
function looseObjects(db: ObjectDb): [string, string][] {
  const found: [string, string][] = [];
  for (const dir of readdirSync(db.objectsDir)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const rest of readdirSync(join(db.objectsDir, dir))) found.push([dir, rest]);
  }
  return found;
}

/** What runGc needs beyond the store and the kept trees. */
export interface GcHooks {
  meter?: GcMeter;
  /**
   * Object ids kept as they are, whether a kept tree reaches them or not (the blobs the store's stat cache names:
   * a track reuses them without storing them again).
   */
  alsoKeep?: Iterable<string>;
  /**
   * Called once with everything gc is about to remove, before the first removal (not at all when nothing goes):
   * the store writes it down (store.ts `stampGc`), so a gc killed midway is finished by the next store to take the
   * lock — never left with a root whose children went and other stores trusting what is half gone.
   */
  beforeRemove?: (doomed: Doomed) => void;
}

/** What a gc removes: loose objects (`xx/yyyy…`, under objects/) and packs (`pack-<40 hex>`, under objects/pack/). */
export interface Doomed {
  loose: string[];
  packs: string[];
}

const LOOSE_NAME = /^[0-9a-f]{2}\/[0-9a-f]{38}$/;
const PACK_NAME = /^pack-[0-9a-f]{40}$/;

/**
 * Removes what `doomed` names from `db` (the rest of a gc, or all of it): names that are not an object's or a
 * pack's are ignored (the list is read back from a file), and what is gone already is skipped. The pack list is
 * read again afterwards.
 */
export function removeDoomed(db: ObjectDb, doomed: Doomed): void {
  const gone = (f: string): void => {
    try {
      unlinkSync(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  };
  for (const name of doomed.loose) if (LOOSE_NAME.test(name)) gone(join(db.objectsDir, name));
  const packs = doomed.packs.filter((n) => PACK_NAME.test(n));
  if (packs.length > 0) db.close();
  for (const name of packs) {
    gone(join(db.objectsDir, 'pack', `${name}.idx`));
    gone(join(db.objectsDir, 'pack', `${name}.pack`));
  }
  db.reloadPacks();
}

/**
 * Runs gc over `db` (see the module docstring for what is kept). The pack list is read afresh first: a pack
 * another process wrote since must be marked from and pruned like the others (else its trees survive while the
 * objects under them, in packs this gc rewrites, go). Nothing is removed until the kept objects of the packs it
 * rewrites are in their new pack and `beforeRemove` has been told the whole list.
 */
export function runGc(
  db: ObjectDb,
  reader: TreeReader,
  keep: string[],
  olderThanMs: number,
  hooks: GcHooks = {},
): GcReport {
  const { meter, alsoKeep = [] } = hooks;
  db.reloadPacks();
  reader.clear();
  const cutoff = Date.now() - olderThanMs;
  const loose = looseObjects(db);
  meter?.phase('mark', 'objects');
  const live = mark(reader, [...keep, ...youngTrees(db, loose, cutoff)], alsoKeep, meter);
  const report: GcReport = { removedObjects: 0, keptObjects: 0, freedBytes: 0 };
  meter?.phase('prune', 'objects', { items: loose.length });
  const doomed: Doomed = { loose: [], packs: [] };
  for (const [dir, rest] of loose) {
    const st = statSync(join(db.objectsDir, dir, rest));
    meter?.tick(1, 0);
    if (live.has(dir + rest) || st.mtimeMs > cutoff) {
      report.keptObjects++;
      continue;
    }
    doomed.loose.push(`${dir}/${rest}`);
    report.removedObjects++;
    report.freedBytes += st.size;
  }
  // One sink for every rewritten pack; finished after the loop, because finishing reloads (closes) the packs.
  // Bulk: compressed on the helper thread at level 6, blobs as deltas against similar ones (paths below).
  const sink = new ObjectSink(db, true);
  try {
    for (const base of rewritePacks(db, sink, live, cutoff, report, meter)) doomed.packs.push(basename(base));
    sink.finish();
  } catch (e) {
    // A damaged pack (or a full disk): drop the half-written pack, its open file and its queued bodies.
    sink.abort();
    throw e;
  }
  if (doomed.loose.length + doomed.packs.length > 0) {
    hooks.beforeRemove?.(doomed);
    removeDoomed(db, doomed);
  }
  return report;
}

/**
 * Puts the marked objects of every pack older than `cutoff` that holds unmarked ones into `sink`; returns those
 * packs' base paths (to delete once the sink is finished) and counts into `report`.
 */
function rewritePacks(
  db: ObjectDb,
  sink: ObjectSink,
  live: Map<string, string | undefined>,
  cutoff: number,
  report: GcReport,
  meter?: GcMeter,
): string[] {
  const doomed: string[] = [];
  const packs = [...db.packFiles].map((pack) => {
    const ids = pack.ids();
    const st = statSync(`${pack.base}.pack`);
    const dead = ids.filter((id) => !live.has(id));
    return { pack, ids, st, dead, rewrite: dead.length > 0 && st.mtimeMs <= cutoff };
  });
  const total = packs.reduce((n, p) => n + (p.rewrite ? p.ids.length - p.dead.length : 0), 0);
  if (total > 0) meter?.phase('repack', 'objects', { items: total });
  for (const { pack, ids, st, dead, rewrite } of packs) {
    if (!rewrite) {
      report.keptObjects += ids.length;
      continue;
    }
    for (const id of ids) {
      if (!live.has(id)) continue;
      const o = pack.read(id);
      if (o) sink.put(o.type, o.content, id, true, o.type === 'blob' ? live.get(id) : undefined);
      meter?.tick(1, o ? o.content.length : 0);
    }
    report.keptObjects += ids.length - dead.length;
    report.removedObjects += dead.length;
    report.freedBytes += st.size;
    doomed.push(pack.base);
  }
  return doomed;
}
