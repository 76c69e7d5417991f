/**
 * The persisted stat cache. Files: worktree path → (size, mtime, ctime, inode, mode) → blob id, so an unchanged
 * file is never read again. Folders: path → (mtime, ctime, inode) → the names it held (each prefixed `d` for a
 * folder, `f` otherwise) and the tree id and entry count it produced, so an unchanged folder is not listed again
 * (adding, removing or renaming an entry changes the folder's mtime) and a folder whose entries all came back
 * unchanged reuses its tree id without re-encoding. Plus the last tracked tree and the ids of its trees.
 *
 * "Racy" records — mtime within RACY_MS of the track that recorded them — are not trusted next time, because a
 * second change inside the same timestamp tick would otherwise go unseen (git's racy-clean problem).
 * Stored as deflated JSON, written to a temporary name and renamed after the objects it names are in place, so a
 * crash leaves either the old or the new cache, and both name only objects that exist.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';

/** A file's stat data and blob id. `racy` forces a re-hash next time. */
export interface StatEntry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
  oid: string;
  racy: boolean;
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

type Row = [string, number, number, number, number, number, string, 0 | 1];
type DirRow = [string, number, number, number, string, string | null, number, 0 | 1];

/** An empty cache (every file is hashed, every folder listed). */
export function emptyStatCache(): StatCacheData {
  return { tree: undefined, trees: new Set(), entries: new Map(), dirs: new Map() };
}

/** Loads the cache; a missing or damaged file gives an empty cache. */
export function loadStatCache(file: string): StatCacheData {
  try {
    const raw = JSON.parse(inflateSync(readFileSync(file)).toString('utf8')) as { v: number; tree?: string; trees: string[]; rows: Row[]; dirs: DirRow[] };
    if (raw.v !== 2) throw new Error('version');
    const entries = new Map<string, StatEntry>();
    for (const [path, size, mtimeMs, ctimeMs, ino, mode, oid, racy] of raw.rows) entries.set(path, { size, mtimeMs, ctimeMs, ino, mode, oid, racy: racy === 1 });
    const dirs = new Map<string, DirRecord>();
    for (const [path, mtimeMs, ctimeMs, ino, names, oid, count, racy] of raw.dirs) dirs.set(path, { mtimeMs, ctimeMs, ino, names, oid: oid ?? undefined, count, racy: racy === 1 });
    return { tree: raw.tree, trees: new Set(raw.trees), entries, dirs };
  } catch {
    return emptyStatCache();
  }
}

/** Writes the cache atomically (temp + rename). */
export function saveStatCache(file: string, data: StatCacheData): void {
  const rows: Row[] = [];
  for (const [p, e] of data.entries) rows.push([p, e.size, e.mtimeMs, e.ctimeMs, e.ino, e.mode, e.oid, e.racy ? 1 : 0]);
  const dirs: DirRow[] = [];
  for (const [p, d] of data.dirs) dirs.push([p, d.mtimeMs, d.ctimeMs, d.ino, d.names, d.oid ?? null, d.count, d.racy ? 1 : 0]);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, deflateSync(JSON.stringify({ v: 2, tree: data.tree, trees: [...data.trees], rows, dirs }), { level: 1 }));
  renameSync(tmp, file);
}

interface StatLike {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** True when a fresh lstat matches a cached file entry closely enough to reuse its blob id. */
export function statMatches(e: StatEntry | undefined, st: StatLike): e is StatEntry {
  return e !== undefined && !e.racy && e.size === st.size && e.mtimeMs === st.mtimeMs && e.ctimeMs === st.ctimeMs && e.ino === st.ino && e.mode === st.mode;
}

/** True when a folder's lstat matches its record, so its cached listing is still its listing. */
export function dirMatches(d: DirRecord | undefined, st: StatLike): d is DirRecord {
  return d !== undefined && !d.racy && d.mtimeMs === st.mtimeMs && d.ctimeMs === st.ctimeMs && d.ino === st.ino;
}
