/**
 * The track walk: one synchronous depth-first pass over the work tree that builds the git tree for it.
 *
 * Per folder: lstat it; its names come from the stat cache when its stat is unchanged, else from readdir; enter a `.gitignore` frame if the folder has one, skip
 * every `.git` entry (the user's repository, nested repositories, submodule `.git` files — their files are plain
 * files here, their git data never), skip ignored names unless the user's index tracks them, recurse into folders,
 * and for files and symlinks lstat (or take the helper thread's lstat, stat-prefetch.ts) and compare with the stat cache: equal stat data reuses the cached blob id
 * without reading; otherwise the file is read (symlinks: their target text, never followed), hashed with sha1,
 * and checked again with fstat after reading; a file that changed while being read is read again. New blobs and
 * trees go to the ObjectSink; a tree id already known from the last track is not looked up or written again, so
 * only changed subtrees are written; a folder whose entries all came back unchanged (same count, every file a
 * cache hit, every subfolder unchanged) reuses its last tree id without encoding it. Untracked files over the size limit and special files are reported.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { readBoundedSync, readCheckedSync } from '../fs/read-checked';
import { hashObject } from './git/object-id';
import type { IgnoreRules } from './ignore-rules';
import type { ObjectSink } from './git/object-db';
import { dirMatches, RACY_MS, sameDir, statMatches, type DirRecord, type StatEntry } from './stat-entries';
import { encodeTree, replaceIds, type EntryMode, type TreeEntry } from './git/tree';
import type { TrackedPaths } from './user-index';
import type { SkippedFile } from './types';
import type { Prefetch } from './stat-prefetch';
import { spliced, type WalkGuide } from './walk-guide';
import type { ProgressTicker } from './progress';

/** Everything one walk needs. `entries`, `dirs`, `trees`, `skipped` are filled in. */
export interface WalkContext {
  root: string;
  rules: IgnoreRules;
  tracked: TrackedPaths | undefined;
  maxFileBytes: number;
  prev: Map<string, StatEntry>;
  prevDirs: Map<string, DirRecord>;
  prevTrees: Set<string>;
  sink: ObjectSink;
  /**
   * Guided walk (walk-guide.ts): only these folders and paths are looked at again; `entries`, `dirs` and `trees`
   * then start as copies of the last track's, and an untouched folder or file keeps its record without a syscall.
   */
  guide?: WalkGuide;
  /**
   * Entries of a stored tree (TreeReader.read; throws when the store lacks it): a guided walk's spliced folder
   * starts from its last tree's entries. Unset: every folder is walked entry by entry.
   */
  treeEntries?: (oid: string) => readonly TreeEntry[];
  /** The stored bytes of a tree (undefined when not at hand): a spliced folder's new tree is made from them. */
  treeBytes?: (oid: string) => Uint8Array | undefined;
  /** lstat results from the helper thread (stat-prefetch.ts) for files of the last track, when it runs. */
  prefetch: Prefetch | undefined;
  /**
   * A full walk's number (store.ts counts them); undefined for a guided walk. A full walk records in `entries` and
   * `dirs` only what differs from the last track's records and stamps each record it finds as it was with this
   * number (`seen`): nothing is copied, so a walk that finds nothing changed leaves no garbage that outlives it, and
   * stat-merge.ts brings the cache up to date (unstamped records are gone). A guided walk records everything it
   * looks at (walk-guide.ts merges it).
   */
  gen: number | undefined;
  /** Date.now() when the walk started; records whose mtime is near it are marked racy. */
  startedAt: number;
  entries: Map<string, StatEntry>;
  dirs: Map<string, DirRecord>;
  trees: Set<string>;
  skipped: SkippedFile[];
  /**
   * Paths this walk did not capture although they exist: ignored files, ignored folders (ending in `/`), skipped
   * files and unreadable folders (left-out.ts: a revert must not take "absent" for "did not exist" there).
   */
  leftOut: string[];
  /** Files read and hashed (not served from the stat cache). */
  hashed: number;
  /** Folders a guided walk spliced (`splicedDir`): entered through their last tree, not entry by entry. */
  spliced: number;
  /** Of those, the ones listed as before (`listedAsBefore`: names reported directly in them). */
  splicedListed: number;
  /** Told once per file or link looked at, and of the bytes read to hash it (progress.ts). */
  progress?: ProgressTicker;
  /**
   * Guided: the last walk's left-out paths and skipped files directly in each folder of `guide.parents` that this
   * walk does not look at again (walk-guide.ts `inParents`): a folder listed as before takes them over.
   */
  carry?: { leftOut: Map<string, string[]>; skipped: Map<string, SkippedFile[]> };
}

/** A folder's result: its tree id (undefined when nothing in it is kept) and whether it equals last time's. */
export interface DirResult {
  oid: string | undefined;
  same: boolean;
}

interface Item {
  name: string;
  isDir: boolean;
}

const READ_ATTEMPTS = 4;

/**
 * Files whose first read buffer fits here are read into this one reused buffer and copied out at their exact
 * size (readBoundedSync's `scratch`): a fresh 16 KiB buffer per file was most of a first track's allocations
 * (1.6 GB over 100,000 files), and the part of it a small file kept alive was waste. Larger files get a buffer
 * of their own size as before. Allocated on the first read (one per thread: walks are synchronous).
 */
const SCRATCH_BYTES = 256 << 10;
let scratch: Buffer | undefined;

/** The names a folder's record holds. */
function cachedListing(rec: DirRecord): { items: Item[]; names: string } {
  const items: Item[] =
    rec.names === '' ? [] : rec.names.split('/').map((n) => ({ name: n.slice(1), isDir: n[0] === 'd' }));
  return { items, names: rec.names };
}

/** The folder's names: from the cache when its stat is unchanged, else from readdir. */
function listing(abs: string, rec: DirRecord | undefined, st: Stats): { items: Item[]; names: string } | undefined {
  if (rec && dirMatches(rec, st)) return cachedListing(rec);
  let dirents: Dirent[];
  try {
    dirents = readdirSync(abs, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const items = dirents.map((d) => ({ name: d.name, isDir: d.isDirectory() }));
  return { items, names: items.map((i) => (i.isDir ? 'd' : 'f') + i.name).join('/') };
}

/** What a folder's record keeps of its lstat. */
type DirStamp = Pick<DirRecord, 'mtimeMs' | 'ctimeMs' | 'ino' | 'racy'>;

/**
 * Walks folder `rel` ('' = root) whose lstat is `st`; `st` undefined: a guided walk's folder whose listing nothing
 * reported (walk-guide.ts `parents`) — its record's names and stat data are kept as they are. `whole` (guided
 * walks): `rel` is a reported path or lies inside one, so everything in it is looked at as in a full walk — carried
 * down the recursion, so telling whether an entry is looked at whole (walk-guide.ts `walkedWhole`) costs one set
 * lookup instead of one per folder above it.
 */
export function walkDir(
  ctx: WalkContext,
  rel: string,
  forcedOnly: boolean,
  st: Stats | undefined,
  whole = false,
): DirResult {
  const abs = rel === '' ? ctx.root : `${ctx.root}/${rel}`;
  const rec = ctx.prevDirs.get(rel);
  if (!st && rec) {
    const r = splicedDir(ctx, rel, abs, rec, forcedOnly, false);
    if (r) return r;
  } else if (st && rec && !whole && listedAsBefore(ctx.guide, rel, rec, st)) {
    const r = splicedDir(ctx, rel, abs, rec, forcedOnly, true);
    if (r) return r;
  }
  const list = st ? listing(abs, rec, st) : rec && cachedListing(rec);
  const stamp: DirStamp | undefined = st
    ? { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, racy: st.mtimeMs >= ctx.startedAt - RACY_MS }
    : rec;
  if (!list || !stamp) {
    if (rel !== '') {
      ctx.skipped.push({ path: rel, reason: 'unreadable' });
      ctx.leftOut.push(`${rel}/`);
    }
    return { oid: undefined, same: false };
  }
  const pushed = !forcedOnly && pushGitignore(ctx, rel, abs, list.items);
  const entries: TreeEntry[] = [];
  let allSame = true;
  const guide = ctx.guide;
  // Entries of a pending folder are looked at whole (walk-guide.ts `walkedWhole`).
  const entriesWhole = whole || (guide !== undefined && guide.fresh.size > 0 && guide.fresh.has(rel));
  for (const item of list.items) {
    const name = item.name;
    if (name === '.git') continue;
    const path = rel === '' ? name : `${rel}/${name}`;
    const at: Looked = guide
      ? { whole: entriesWhole || guide.touched.has(path), inside: whole || guide.touched.has(path) }
      : FULL;
    const r = item.isDir ? subdir(ctx, path, forcedOnly, at) : file(ctx, path, forcedOnly, at);
    if (!r) continue;
    if (!r.same) allSame = false;
    if (r.entry) entries.push(r.entry);
  }
  if (pushed) ctx.rules.pop();
  return finishDir(ctx, rel, rec, stamp, list.names, entries.length, allSame, () => encodeTree(entries));
}

/**
 * A folder's tree from its `count` entries: its last tree id when `allSame` and the count is as recorded, else
 * `content()` (the tree's bytes) hashed and, when new, stored; then its record.
 */
function finishDir(
  ctx: WalkContext,
  rel: string,
  rec: DirRecord | undefined,
  stamp: DirStamp,
  names: string,
  count: number,
  allSame: boolean,
  content: () => Buffer,
): DirResult {
  let oid: string | undefined;
  if (allSame && rec && rec.count === count) {
    oid = rec.oid; // every entry is as it was: the tree is as it was
  } else if (count > 0) {
    const bytes = content();
    oid = hashObject('tree', bytes);
    // Guided, a tree not in the last track's set is put without asking the store whether an older snapshot holds
    // it (a lookup in every big pack per tree): a step's folders on the way are almost always new, and a tree
    // stored twice is harmless (readers take either copy; merging packs and gc keep one).
    if (!ctx.prevTrees.has(oid) && !ctx.trees.has(oid)) ctx.sink.put('tree', bytes, oid, ctx.guide !== undefined);
  }
  if (oid) ctx.trees.add(oid);
  const next: DirRecord = {
    mtimeMs: stamp.mtimeMs,
    ctimeMs: stamp.ctimeMs,
    ino: stamp.ino,
    names,
    oid,
    count,
    racy: stamp.racy,
    seen: ctx.gen ?? 0,
  };
  // A folder found as it was keeps its record object (a full walk only stamps it; `next` dies young).
  const kept = rec !== undefined && sameDir(rec, next) ? rec : undefined;
  if (kept && ctx.gen !== undefined) kept.seen = ctx.gen;
  else ctx.dirs.set(rel, kept ?? next);
  return { oid, same: rec !== undefined && oid === rec.oid };
}

/** replaceIds on the stored bytes of tree `oid` (whose entries are `base`); undefined when they are not at hand. */
function quickTree(
  ctx: WalkContext,
  oid: string,
  base: readonly TreeEntry[],
  changed: ReadonlyMap<number, TreeEntry>,
): Buffer | undefined {
  let bytes: Uint8Array | undefined;
  try {
    bytes = ctx.treeBytes?.(oid);
  } catch {
    return undefined; // unreadable here: the caller encodes the entries instead
  }
  return bytes && replaceIds(bytes, base, changed);
}

/** True when listing `names` (a folder record's: 'd' or 'f' and the name, joined by '/') holds `kind` + `name`. */
function lists(names: string, kind: 'd' | 'f', name: string): boolean {
  const item = kind + name;
  for (let at = names.indexOf(item); at >= 0; at = names.indexOf(item, at + 1))
    if ((at === 0 || names[at - 1] === '/') && (at + item.length === names.length || names[at + item.length] === '/'))
      return true;
  return false;
}

/**
 * True when a guided walk takes folder `rel` (not walked whole: the caller checks) through its last tree although
 * paths directly in it were reported: it holds reported paths (walk-guide.ts `parents`), it is not itself reported
 * or pending, not the root, and its lstat `st` matches its record — so its listing is as last time and only the
 * reported names in it can have changed (a file's content: a name added or removed changes the folder's mtime).
 */
function listedAsBefore(guide: WalkGuide | undefined, rel: string, rec: DirRecord, st: Stats): boolean {
  return (
    guide !== undefined &&
    rel !== '' &&
    guide.parents.has(rel) &&
    !guide.touched.has(rel) &&
    !guide.fresh.has(rel) &&
    dirMatches(rec, st)
  );
}

/**
 * A spliced folder: its last tree's entries are taken as they are and only some names are looked at again and put
 * in — a folder of 40 entries above one changed file costs one entry, not 40. Two kinds:
 * - on the way (`listed` false; walk-guide.ts `spliced`: nothing reported directly in it, its listing as last
 *   time): only its subfolders on the way (`guide.below`) are entered. What the last walk left out in it the store
 *   keeps (walk-guide.ts `untouched`).
 * - listed as before (`listed`; `listedAsBefore`): its subfolders on the way are entered and the names reported
 *   directly in it (`guide.named`) are looked at as in a full walk; what the last walk left out or skipped directly
 *   in it, unreported, is taken over (`ctx.carry`).
 * Every other entry is unreported, so it is as last time. Undefined (walk it entry by entry instead) when it is
 * not spliced, its last tree cannot be read, or a subfolder on the way is not in its listing as a folder.
 */
function splicedDir(
  ctx: WalkContext,
  rel: string,
  abs: string,
  rec: DirRecord,
  forcedOnly: boolean,
  listed: boolean,
): DirResult | undefined {
  const guide = ctx.guide;
  if (!guide || !ctx.treeEntries) return undefined;
  // The same rule the store keeps left-out paths by (walk-guide.ts `untouched`): the two must agree.
  if (!listed && !spliced(guide, rel, (p) => ctx.prevDirs.has(p))) return undefined;
  const below = guide.below.get(rel) ?? [];
  if (!below.every((name) => lists(rec.names, 'd', name))) return undefined;
  let base: readonly TreeEntry[];
  try {
    base = rec.oid ? ctx.treeEntries(rec.oid) : [];
  } catch {
    return undefined;
  }
  const pushed = !forcedOnly && lists(rec.names, 'f', '.gitignore') && pushGitignore(ctx, rel, abs, GITIGNORE);
  ctx.spliced++;
  if (listed) ctx.splicedListed++;
  const changed = new Map<number, TreeEntry>();
  const added: TreeEntry[] = [];
  const removed = new Set<number>();
  let allSame = true;
  const look = (name: string, isDir: boolean): void => {
    if (name === '.git') return; // never captured (a nested repository's, a submodule's): as walkDir skips it
    const path = `${rel}/${name}`;
    const reported = guide.touched.has(path);
    const at: Looked = reported ? FULL : NOT_WHOLE;
    const r = isDir ? subdir(ctx, path, forcedOnly, at) : file(ctx, path, forcedOnly, at);
    const i = base.findIndex((e) => e.name === name);
    if (r?.entry && i >= 0) changed.set(i, r.entry);
    else if (r?.entry) added.push(r.entry);
    else if (i >= 0) removed.add(i);
    if (r ? !r.same : i >= 0) allSame = false;
  };
  for (const name of below) look(name, true);
  if (listed) {
    for (const name of guide.named.get(rel) ?? []) {
      if (below.includes(name)) continue; // entered above
      // A name not in the listing is not there now (the listing is the folder's): nothing to look at.
      if (lists(rec.names, 'd', name)) look(name, true);
      else if (lists(rec.names, 'f', name)) look(name, false);
    }
    for (const p of ctx.carry?.leftOut.get(rel) ?? []) ctx.leftOut.push(p);
    for (const f of ctx.carry?.skipped.get(rel) ?? []) ctx.skipped.push(f);
  }
  if (pushed) ctx.rules.pop();
  const count = base.length + added.length - removed.size;
  return finishDir(ctx, rel, rec, rec, rec.names, count, allSame, () => {
    // Only ids changed (a step's usual case): the last tree's bytes with the new ids written in.
    const quick = added.length + removed.size === 0 && rec.oid ? quickTree(ctx, rec.oid, base, changed) : undefined;
    if (quick) return quick;
    const kept = base.flatMap((e, i) => (removed.has(i) ? [] : [changed.get(i) ?? e]));
    return encodeTree([...kept, ...added]);
  });
}

interface ItemResult {
  entry: TreeEntry | undefined;
  same: boolean;
}

/**
 * How a guided walk looks at an entry: `whole` — as in a full walk (walk-guide.ts `walkedWhole`: reported, inside a
 * reported folder, or an entry of a pending folder); `inside` — it is a reported path or lies inside one (a
 * folder's `whole` for its own entries). A full walk looks at everything (FULL).
 */
interface Looked {
  whole: boolean;
  inside: boolean;
}
const FULL: Looked = { whole: true, inside: true };
/** A spliced folder's subfolder on the way: neither reported nor inside a reported path. */
const NOT_WHOLE: Looked = { whole: false, inside: false };
/** The one item pushGitignore needs to see to read a folder's `.gitignore`. */
const GITIGNORE: Item[] = [{ name: '.gitignore', isDir: false }];

/** A folder entry: ignored (undefined), or walked. Falls back to `file` when it is no longer a folder. */
function subdir(ctx: WalkContext, path: string, forcedOnly: boolean, at: Looked): ItemResult | undefined {
  const holdsTracked = ctx.tracked?.dirs.has(path) === true;
  let only = forcedOnly;
  if (forcedOnly) {
    if (!holdsTracked) return undefined;
  } else if (!ctx.rules.empty && ctx.rules.ignored(path, true)) {
    ctx.leftOut.push(`${path}/`); // even when the index tracks some files in it: the others are not captured
    if (!holdsTracked) return undefined;
    only = true; // git: inside an ignored folder only what the index tracks counts
  }
  const kept = ctx.guide && !at.whole && !ctx.guide.dirs.has(path) && ctx.prevDirs.get(path);
  if (kept) {
    if (kept.oid) ctx.trees.add(kept.oid);
    const name = path.slice(path.lastIndexOf('/') + 1);
    return { entry: kept.oid ? { name, mode: '40000', oid: kept.oid } : undefined, same: true };
  }
  // A folder above reported paths whose own listing nothing reported: entered without a system call.
  const unlisted =
    ctx.guide && !at.whole && !ctx.guide.parents.has(path) && !ctx.guide.fresh.has(path) && ctx.prevDirs.has(path);
  let st: Stats | undefined;
  if (!unlisted) {
    try {
      st = lstatSync(`${ctx.root}/${path}`);
    } catch {
      return { entry: undefined, same: false };
    }
    if (!st.isDirectory()) return file(ctx, path, forcedOnly, at);
  }
  const r = walkDir(ctx, path, only, st, ctx.guide !== undefined && at.inside);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { entry: r.oid ? { name, mode: '40000', oid: r.oid } : undefined, same: r.same };
}

/** A file or symlink entry: ignored (undefined), or its tree entry and whether it is unchanged. */
function file(ctx: WalkContext, path: string, forcedOnly: boolean, at: Looked): ItemResult | undefined {
  // Guided, an unreported file keeps its record — and its ignore decision: the rules and the user's index are as
  // they were (a change to either makes the store walk everything), and a file the last walk left out has no
  // record, so a recorded one was captured then and is now.
  const kept = ctx.guide && !at.whole ? ctx.prev.get(path) : undefined;
  const keptMode = kept && modeOfBits(kept.mode);
  if (kept && keptMode)
    return { entry: { name: path.slice(path.lastIndexOf('/') + 1), mode: keptMode, oid: kept.oid }, same: true };
  const isTracked = ctx.tracked?.files.has(path) === true;
  if (forcedOnly && !isTracked) return undefined; // inside an ignored folder, already left out as a whole
  if (!isTracked && !ctx.rules.empty && ctx.rules.ignored(path, false)) {
    ctx.leftOut.push(path);
    return undefined;
  }
  ctx.progress?.tick(1, 0);
  const e = fileEntry(ctx, `${ctx.root}/${path}`, path, isTracked);
  if (e === 'dir') return subdir(ctx, path, forcedOnly, at); // became a folder since it was listed
  if (!e) return { entry: undefined, same: false };
  return { entry: { name: path.slice(path.lastIndexOf('/') + 1), mode: e.mode, oid: e.oid }, same: e.same };
}

/** Largest .gitignore read (bytes); a symlinked one is not followed (as git 2.32+ does not). */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

function pushGitignore(ctx: WalkContext, rel: string, abs: string, items: Item[]): boolean {
  if (!items.some((d) => d.name === '.gitignore' && !d.isDir)) return false;
  const read = readCheckedSync(`${abs}/.gitignore`, MAX_GITIGNORE_BYTES);
  return read.ok && ctx.rules.push(rel, read.bytes.toString('utf8'));
}

function modeOf(st: Stats): EntryMode | undefined {
  if (st.isSymbolicLink()) return '120000';
  if (st.isFile()) return st.mode & 0o100 ? '100755' : '100644';
  return undefined;
}

/** Tree mode from raw st_mode bits (a prefetched lstat has no Stats methods). */
function modeOfBits(mode: number): EntryMode | undefined {
  const type = mode & constants.S_IFMT;
  if (type === constants.S_IFLNK) return '120000';
  if (type === constants.S_IFREG) return mode & 0o100 ? '100755' : '100644';
  return undefined;
}

/** Records that file `path` is as its cache entry says: a full walk stamps the entry, a guided walk records it. */
function keepEntry(ctx: WalkContext, path: string, cached: StatEntry): void {
  if (ctx.gen === undefined) ctx.entries.set(path, cached);
  else cached.seen = ctx.gen;
}

/** The cached entry when the helper thread's lstat of `path` matches it (and it is still kept), else undefined. */
function prefetchedHit(
  ctx: WalkContext,
  path: string,
  isTracked: boolean,
): { mode: EntryMode; oid: string; same: boolean } | undefined {
  const pre = ctx.prefetch?.take(path);
  if (!pre) return undefined;
  const mode = modeOfBits(pre.mode);
  if (!mode || (mode !== '120000' && !isTracked && pre.size > ctx.maxFileBytes)) return undefined;
  const cached = ctx.prev.get(path);
  if (!cached || !statMatches(cached, pre)) return undefined;
  keepEntry(ctx, path, cached);
  return { mode, oid: cached.oid, same: true };
}

/** One file or symlink: its mode and blob id, from the stat cache or by reading it. */
function fileEntry(
  ctx: WalkContext,
  abs: string,
  path: string,
  isTracked: boolean,
): { mode: EntryMode; oid: string; same: boolean } | 'dir' | undefined {
  const hit = prefetchedHit(ctx, path, isTracked);
  if (hit) return hit;
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return undefined; // vanished since readdir: it is simply not in this tree
  }
  if (st.isDirectory()) return 'dir';
  const mode = modeOf(st);
  if (!mode) {
    ctx.skipped.push({ path, reason: 'special' });
    ctx.leftOut.push(path);
    return undefined;
  }
  if (mode !== '120000' && !isTracked && st.size > ctx.maxFileBytes) {
    ctx.skipped.push({ path, reason: 'too_large', size: st.size });
    ctx.leftOut.push(path);
    return undefined;
  }
  const cached = ctx.prev.get(path);
  if (cached && statMatches(cached, st)) {
    keepEntry(ctx, path, cached);
    return { mode, oid: cached.oid, same: true };
  }
  const got = mode === '120000' ? readLink(abs, st) : readStable(abs, ctx.maxFileBytes);
  if (!got) {
    ctx.skipped.push({ path, reason: 'unreadable' });
    ctx.leftOut.push(path);
    return undefined;
  }
  const finalMode = modeOf(got.st) ?? mode;
  const oid = hashObject('blob', got.bytes);
  // The stat cache names only stored objects: a file read again (racy) and found unchanged is not put. Guided, a
  // new blob is put without asking every big pack first (as its trees, finishDir): a changed file's content is
  // almost always new, and one stored twice is harmless (merging packs and gc keep one).
  if (cached?.oid !== oid) ctx.sink.put('blob', got.bytes, oid, ctx.guide !== undefined, path);
  ctx.hashed++;
  ctx.progress?.tick(0, got.bytes.length);
  const s = got.st;
  const racy = !got.stable || s.mtimeMs >= ctx.startedAt - RACY_MS;
  // Worth saving: a new id or stat data, or a racy entry that can now be trusted (else every reopen re-hashes it).
  if (cached && cached.oid === oid && cached.racy === racy && statMatches({ ...cached, racy: false }, s)) {
    keepEntry(ctx, path, cached); // read again (racy), found as it was
  } else {
    const seen = ctx.gen ?? 0;
    ctx.entries.set(path, {
      size: s.size,
      mtimeMs: s.mtimeMs,
      ctimeMs: s.ctimeMs,
      ino: s.ino,
      mode: s.mode,
      oid,
      racy,
      seen,
    });
  }
  return { mode: finalMode, oid, same: false };
}

interface Read {
  bytes: Buffer;
  st: Stats;
  stable: boolean;
}

function readLink(abs: string, st: Stats): Read | undefined {
  try {
    return { bytes: readlinkSync(abs, { encoding: 'buffer' }), st, stable: true };
  } catch {
    return undefined;
  }
}

/**
 * Reads a regular file until two fstat calls around the read agree (size, mtime, ctime) with what was read.
 * Bounded by bytes actually read (at most the reported size or `maxBytes`, whichever is larger): a file that
 * reports size 0 but never ends (a pseudo-file) is not read without limit — it is unreadable here.
 */
function readStable(abs: string, maxBytes: number): Read | undefined {
  let last: Read | undefined;
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    let fd: number;
    try {
      fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return last;
    }
    try {
      const before = fstatSync(fd);
      scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
      const read = readBoundedSync(fd, Math.max(before.size, maxBytes), before.size, scratch);
      if (read.over) return undefined;
      const bytes = read.bytes;
      const after = fstatSync(fd);
      const stable =
        after.size === bytes.length && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs;
      last = { bytes, st: after, stable };
      if (stable) return last;
    } catch {
      return last;
    } finally {
      closeSync(fd);
    }
  }
  return last;
}
