/**
 * The persisted stat cache. Files: worktree path → (size, mtime, ctime, inode, mode) → blob id, so an unchanged
 * file is never read again. Folders: path → (mtime, ctime, inode) → the names it held (each prefixed `d` for a
 * folder, `f` otherwise) and the tree id and entry count it produced, so an unchanged folder is not listed again
 * (adding, removing or renaming an entry changes the folder's mtime) and a folder whose entries all came back
 * unchanged reuses its tree id without re-encoding. Plus the last tracked tree and the ids of its trees.
 *
 * What an entry holds and when it is trusted (racy records: never) is stat-entries.ts.
 * Stored as deflated binary columns (stat-cache-codec.ts) written to a temporary name and renamed, plus an
 * append-only journal of per-track changes with a crc32 per record; both are written after the objects they
 * name, so a crash leaves an older but consistent cache that names only objects that exist.
 */
import { appendFileSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { Cursor, decodeCache, encodeCache, oidBytes, stringsBlock } from './stat-cache-codec';
import { emptyStatCache, type StatCacheChange, type StatCacheData } from './stat-entries';

/** Journal file beside the cache file. */
function journalOf(file: string): string {
  return `${file}.journal`;
}

/**
 * Loads the cache file and replays its journal; a missing or damaged cache file gives an empty cache, and a
 * damaged journal record (a crash mid-append) ends the replay there: an older cache is always safe, its entries
 * for files changed since simply no longer match.
 */
export function loadStatCache(file: string): StatCacheData {
  let data: StatCacheData;
  try {
    data = decodeCache(new Cursor(inflateSync(readFileSync(file))));
  } catch {
    return emptyStatCache();
  }
  let log: Buffer;
  try {
    log = readFileSync(journalOf(file));
  } catch {
    return data;
  }
  let p = 0;
  while (p + 8 <= log.length) {
    const len = log.readUInt32LE(p);
    const body = log.subarray(p + 8, p + 8 + len);
    if (body.length !== len || crc32(body) !== log.readUInt32LE(p + 4)) break;
    try {
      applyRecord(data, new Cursor(body));
    } catch {
      break;
    }
    p += 8 + len;
  }
  // Cut a torn tail off, so records appended later are not stranded behind it (callers hold the store lock).
  if (p < log.length) truncateSync(journalOf(file), p);
  return data;
}

function applyRecord(data: StatCacheData, c: Cursor): void {
  const up = decodeCache(c);
  for (const [k, v] of up.entries) data.entries.set(k, v);
  for (const [k, v] of up.dirs) data.dirs.set(k, v);
  for (const t of up.trees) data.trees.add(t);
  for (const k of c.strings(c.u32())) data.entries.delete(k);
  for (const k of c.strings(c.u32())) data.dirs.delete(k);
  const nGone = c.u32();
  for (let i = 0; i < nGone; i++) data.trees.delete(c.oid() as string);
  data.tree = up.tree;
}

/** Writes the whole cache atomically (temp + rename) and drops the journal. */
export function saveStatCache(file: string, data: StatCacheData): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, deflateSync(encodeCache(data), { level: 1 }));
  renameSync(tmp, file);
  rmSync(journalOf(file), { force: true });
}

/**
 * Persists `next`, which is what the files on disk hold with `change` applied: appends `change` as one journal
 * record (a few hundred bytes for a dozen files; its cost follows the change, not the tree), or rewrites the whole
 * cache when there is no cache file yet or the journal has grown past a quarter of it (`deferWhole`: past the
 * cache's own size — the caller rewrites it when idle). Answers true when a whole rewrite is due.
 */
export function persistChange(file: string, next: StatCacheData, change: StatCacheChange, deferWhole = false): boolean {
  let base = 0;
  let logSize = 0;
  try {
    base = statSync(file).size;
    logSize = statSync(journalOf(file)).size;
  } catch {
    // no journal yet (or no cache file: base stays 0 and the whole cache is written)
  }
  if (base === 0 || logSize > (deferWhole ? base : base / 4)) {
    saveStatCache(file, next);
    return false;
  }
  const up: StatCacheData = { tree: change.tree, trees: change.trees, entries: change.entries, dirs: change.dirs };
  const count = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const body = Buffer.concat([
    encodeCache(up),
    count(change.goneEntries.length),
    ...stringsBlock(change.goneEntries),
    count(change.goneDirs.length),
    ...stringsBlock(change.goneDirs),
    count(change.goneTrees.length),
    ...change.goneTrees.map(oidBytes),
  ]);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  appendFileSync(journalOf(file), Buffer.concat([head, body]));
  return logSize + head.length + body.length > base / 4;
}

/** Size, mtime and inode of the cache file and its journal: changes whenever anyone writes them. */
export function cacheStamp(file: string): string {
  return [file, `${file}.journal`]
    .map((f) => {
      try {
        const st = statSync(f);
        return `${st.size}:${st.mtimeMs}:${st.ino}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}
