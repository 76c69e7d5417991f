/**
 * The track walk: one synchronous depth-first pass over the work tree that builds the git tree for it.
 *
 * Per folder: readdir (file types come with the names), enter a `.gitignore` frame if the folder has one, skip
 * every `.git` entry (the user's repository, nested repositories, submodule `.git` files — their files are plain
 * files here, their git data never), skip ignored names unless the user's index tracks them, recurse into folders,
 * and for files and symlinks lstat and compare with the stat cache: equal stat data reuses the cached blob id
 * without reading; otherwise the file is read (symlinks: their target text, never followed), hashed with sha1,
 * and checked again with fstat after reading; a file that changed while being read is read again. New blobs and
 * trees go to the ObjectSink; a tree id already known from the last track is not looked up or written again, so
 * only changed subtrees are written. Untracked files over the size limit and special files are reported.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, type Dirent, type Stats } from 'node:fs';
import { hashObject } from './object-id';
import type { IgnoreRules } from './ignore-rules';
import type { ObjectSink } from './object-db';
import { RACY_MS, statMatches, type StatEntry } from './stat-cache';
import { encodeTree, type EntryMode, type TreeEntry } from './tree';
import type { TrackedPaths } from './user-index';
import type { SkippedFile } from './types';

/** Everything one walk needs. `entries`, `trees`, `skipped` are filled in. */
export interface WalkContext {
  root: string;
  rules: IgnoreRules;
  tracked: TrackedPaths | undefined;
  maxFileBytes: number;
  prev: Map<string, StatEntry>;
  prevTrees: Set<string>;
  sink: ObjectSink;
  /** Date.now() when the walk started; entries whose mtime is near it are marked racy. */
  startedAt: number;
  entries: Map<string, StatEntry>;
  trees: Set<string>;
  skipped: SkippedFile[];
  /** Files read and hashed (not served from the stat cache). */
  hashed: number;
}

const READ_ATTEMPTS = 4;

/** Walks folder `rel` ('' = root). Returns its tree id, or undefined when nothing in it is snapshotted. */
export function walkDir(ctx: WalkContext, rel: string, forcedOnly: boolean): string | undefined {
  const abs = rel === '' ? ctx.root : `${ctx.root}/${rel}`;
  let dirents: Dirent[];
  try {
    dirents = readdirSync(abs, { withFileTypes: true });
  } catch {
    if (rel !== '') ctx.skipped.push({ path: rel, reason: 'unreadable' });
    return undefined;
  }
  const pushed = !forcedOnly && pushGitignore(ctx, rel, abs, dirents);
  const entries: TreeEntry[] = [];
  for (const d of dirents) {
    const name = d.name;
    if (name === '.git') continue;
    const path = rel === '' ? name : `${rel}/${name}`;
    const isTracked = ctx.tracked?.files.has(path) === true;
    if (d.isDirectory()) {
      const holdsTracked = ctx.tracked?.dirs.has(path) === true;
      let only = forcedOnly;
      if (forcedOnly) {
        if (!holdsTracked) continue;
      } else if (!ctx.rules.empty && ctx.rules.ignored(path, true)) {
        if (!holdsTracked) continue;
        only = true; // git: inside an ignored folder only what the index tracks counts
      }
      const oid = walkDir(ctx, path, only);
      if (oid) entries.push({ name, mode: '40000', oid });
      continue;
    }
    if (forcedOnly ? !isTracked : !isTracked && !ctx.rules.empty && ctx.rules.ignored(path, false)) continue;
    const e = fileEntry(ctx, `${abs}/${name}`, path, isTracked);
    if (e) entries.push({ name, mode: e.mode, oid: e.oid });
  }
  if (pushed) ctx.rules.pop();
  if (entries.length === 0) return undefined;
  const content = encodeTree(entries);
  const oid = hashObject('tree', content);
  if (!ctx.prevTrees.has(oid) && !ctx.trees.has(oid)) ctx.sink.put('tree', content, oid);
  ctx.trees.add(oid);
  return oid;
}

function pushGitignore(ctx: WalkContext, rel: string, abs: string, dirents: Dirent[]): boolean {
  const gi = dirents.find((d) => d.name === '.gitignore' && d.isFile());
  if (!gi) return false;
  try {
    return ctx.rules.push(rel, readFileSync(`${abs}/.gitignore`, 'utf8'));
  } catch {
    return false;
  }
}

function modeOf(st: Stats): EntryMode | undefined {
  if (st.isSymbolicLink()) return '120000';
  if (st.isFile()) return st.mode & 0o100 ? '100755' : '100644';
  return undefined;
}

/** One file or symlink: its mode and blob id, from the stat cache or by reading it. */
function fileEntry(ctx: WalkContext, abs: string, path: string, isTracked: boolean): { mode: EntryMode; oid: string } | undefined {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return undefined; // vanished since readdir: it is simply not in this tree
  }
  const mode = modeOf(st);
  if (!mode) {
    ctx.skipped.push({ path, reason: 'special' });
    return undefined;
  }
  if (mode !== '120000' && !isTracked && st.size > ctx.maxFileBytes) {
    ctx.skipped.push({ path, reason: 'too_large', size: st.size });
    return undefined;
  }
  const cached = ctx.prev.get(path);
  if (statMatches(cached, st)) {
    ctx.entries.set(path, cached);
    return { mode, oid: cached.oid };
  }
  const got = mode === '120000' ? readLink(abs, st) : readStable(abs);
  if (!got) {
    ctx.skipped.push({ path, reason: 'unreadable' });
    return undefined;
  }
  const finalMode = modeOf(got.st) ?? mode;
  const oid = hashObject('blob', got.bytes);
  ctx.sink.put('blob', got.bytes, oid);
  ctx.hashed++;
  const s = got.st;
  const racy = !got.stable || s.mtimeMs >= ctx.startedAt - RACY_MS;
  ctx.entries.set(path, { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, mode: s.mode, oid, racy });
  return { mode: finalMode, oid };
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

/** Reads a regular file until two fstat calls around the read agree (size, mtime, ctime) with what was read. */
function readStable(abs: string): Read | undefined {
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
      const bytes = readFileSync(fd);
      const after = fstatSync(fd);
      const stable = after.size === bytes.length && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs;
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
