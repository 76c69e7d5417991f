/**
 * The persisted stat cache: worktree path → (size, mtime, ctime, inode, mode) → blob id, plus the last tracked
 * tree and the ids of its trees. An unchanged file (every stat field equal) is never read again. "Racy" entries —
 * files whose mtime fell within RACY_MS of the moment they were recorded — are re-hashed on the next track,
 * because a second write inside the same timestamp tick would otherwise go unseen (git's racy-clean problem).
 *
 * Stored as one JSON file written to a temporary name and renamed, after the objects it names are in place, so
 * a crash leaves either the old or the new cache, and both name only objects that exist.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

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

/** Margin (ms) under which a file's mtime counts as "too recent to trust" (coarse fs clocks tick up to 10 ms). */
export const RACY_MS = 1000;

/** Contents of the cache file. */
export interface StatCacheData {
  tree: string | undefined;
  trees: Set<string>;
  entries: Map<string, StatEntry>;
}

type Row = [string, number, number, number, number, number, string, 0 | 1];

/** Loads the cache; a missing or damaged file gives an empty cache (every file is hashed again). */
export function loadStatCache(file: string): StatCacheData {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { v: number; tree?: string; trees: string[]; rows: Row[] };
    if (raw.v !== 1) throw new Error('version');
    const entries = new Map<string, StatEntry>();
    for (const [path, size, mtimeMs, ctimeMs, ino, mode, oid, racy] of raw.rows) {
      entries.set(path, { size, mtimeMs, ctimeMs, ino, mode, oid, racy: racy === 1 });
    }
    return { tree: raw.tree, trees: new Set(raw.trees), entries };
  } catch {
    return { tree: undefined, trees: new Set(), entries: new Map() };
  }
}

/** Writes the cache atomically (temp + rename). */
export function saveStatCache(file: string, data: StatCacheData): void {
  const rows: Row[] = [];
  for (const [p, e] of data.entries) rows.push([p, e.size, e.mtimeMs, e.ctimeMs, e.ino, e.mode, e.oid, e.racy ? 1 : 0]);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ v: 1, tree: data.tree, trees: [...data.trees], rows }));
  renameSync(tmp, file);
}

/** True when a fresh lstat matches a cached entry closely enough to reuse its blob id. */
export function statMatches(e: StatEntry | undefined, st: { size: number; mtimeMs: number; ctimeMs: number; ino: number; mode: number }): e is StatEntry {
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
