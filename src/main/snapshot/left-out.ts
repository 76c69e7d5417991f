/**
 * What each snapshot did NOT capture. A tree says which files existed when it was taken — but only among the
 * files it captured: an ignored file, an untracked file over the size limit, an unreadable or special file is
 * absent from the tree although it was there. A revert or restore that took "absent from the tree" for "did not
 * exist" deleted such files (the hostile review: bash un-ignored `secrets.env` in a step, the step's patch listed it
 * as added, the revert deleted it, and it was gone for good). So every track records, per tree, the paths it left
 * out — ignored files, ignored folders (with a trailing `/`: everything below them), skipped files — and a deletion
 * goes ahead only for a path the tree's record does not cover (see `covers`).
 *
 * Records live in `<gitdir>/landfall-left-out/<tree>`: a first line `RECORD_HEADER`, then the sorted paths, one a
 * line, each as a JSON string (a file name may hold a newline; the first records, written before the header, are
 * plain lines and are still read). The same tree can come from
 * walks that left out different files (an ignored file created, then removed); a record is therefore the UNION of
 * every walk that produced the tree, which can only keep more. A tree without a record (taken before records
 * existed, or imported) covers every path: nothing absent from it is deleted. Records are written without fsync —
 * a lost record also means "covers everything" — and read again when another process changed them. gc removes
 * the records of trees it no longer keeps.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CACHE = 64;

/** First line of a record whose paths are JSON strings. */
const RECORD_HEADER = '#landfall-left-out 2';

/**
 * The paths of a record's text. With RECORD_HEADER: one JSON string a line; a line that does not parse makes the
 * record unreadable (undefined: the tree then counts as leaving everything out). Without it: a first-version
 * record, plain paths one a line.
 */
export function parseRecord(text: string): Set<string> | undefined {
  if (text === '') return new Set();
  const lines = text.split('\n');
  if (lines[0] !== RECORD_HEADER) return new Set(lines);
  const out = new Set<string>();
  for (const line of lines.slice(1)) {
    try {
      const p: unknown = JSON.parse(line);
      if (typeof p !== 'string') return undefined;
      out.add(p);
    } catch {
      return undefined;
    }
  }
  return out;
}

/** A record file's stat data (size, mtime, ctime, inode), '' when it does not exist. */
function stampOf(file: string): string {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  } catch {
    return '';
  }
}

/** Per-tree records of left-out paths (see the module docstring). */
export class LeftOutRecords {
  /**
   * Parsed records, most recently used last, each with the stat data of its file when read or written: another
   * process may add to a record, so a record is read again when its file's stat data changed.
   */
  private readonly sets = new Map<string, { set: Set<string>; stamp: string }>();
  /** True once this object made sure the records folder exists. */
  private dirMade = false;

  constructor(private readonly dir: string) {}

  private file(tree: string): string {
    return join(this.dir, tree);
  }

  /** The record of `tree` as on disk now, or undefined when there is none (or it cannot be read). */
  private load(tree: string): Set<string> | undefined {
    const stamp = stampOf(this.file(tree)); // most trees a track produces are new: one stat, no thrown error
    const have = this.sets.get(tree);
    this.sets.delete(tree);
    if (stamp === '') return undefined;
    if (have && have.stamp === stamp) {
      this.sets.set(tree, have);
      return have.set;
    }
    let set: Set<string> | undefined;
    try {
      set = parseRecord(readFileSync(this.file(tree), 'utf8'));
    } catch {
      return undefined;
    }
    if (set) this.remember(tree, set, stamp);
    return set;
  }

  private remember(tree: string, set: Set<string>, stamp: string): void {
    this.sets.set(tree, { set, stamp });
    while (this.sets.size > CACHE) this.sets.delete(this.sets.keys().next().value as string);
  }

  /**
   * Adds `paths` (files, and folders ending in `/`) to the record of `tree` as it is on disk now, written at once
   * (temp file, rename) when it grows. Not put off until later: a crash would lose the paths, and a later walk
   * making the same tree without them would leave a smaller record standing (a hostile review). The store calls
   * it under its lock, so no other writer is between the read and the rename.
   */
  record(tree: string, paths: readonly string[]): void {
    const old = this.load(tree);
    if (old && paths.every((p) => old.has(p))) return;
    const set = new Set(old ?? []);
    for (const p of paths) set.add(p);
    const file = this.file(tree);
    const tmp = `${file}.tmp-${process.pid}`;
    const text = [RECORD_HEADER, ...[...set].sort().map((p) => JSON.stringify(p))].join('\n');
    if (!this.dirMade) mkdirSync(this.dir, { recursive: true });
    this.dirMade = true;
    try {
      writeFileSync(tmp, text);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(this.dir, { recursive: true }); // the folder was removed since: make it again
      writeFileSync(tmp, text);
    }
    renameSync(tmp, file);
    this.remember(tree, set, stampOf(file));
  }

  /**
   * Whether `tree` may have left `path` out: the path or a folder above it is in the record, or the tree has no
   * record at all. False means the tree captured everything there was at `path`: absent from it = did not exist.
   */
  covers(tree: string, path: string): boolean {
    const set = this.load(tree);
    if (!set) return true;
    if (set.has(path)) return true;
    for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1))
      if (set.has(path.slice(0, i + 1))) return true;
    return false;
  }

  /** Remove the records of trees not in `keep` that are older than `olderThanMs`. Returns how many went. */
  prune(keep: ReadonlySet<string>, olderThanMs: number): number {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    const cutoff = Date.now() - olderThanMs;
    for (const n of names) {
      if (keep.has(n)) continue;
      try {
        if (statSync(join(this.dir, n)).mtimeMs > cutoff) continue;
        unlinkSync(join(this.dir, n));
        this.sets.delete(n);
        removed++;
      } catch {
        // gone meanwhile
      }
    }
    return removed;
  }
}
