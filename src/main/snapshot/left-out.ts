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
 * existed, or imported) covers every path: nothing absent from it is deleted. Records are written without fsync,
 * and the record of a tree new to the store is written later (`save`, which the store calls when it is idle,
 * before gc and on close), not on a step's path: until then this object answers from memory, and a crash leaves
 * no record — which covers everything. A tree that has a record on disk gets it rewritten at once when it grows (a
 * smaller record left standing by a crash would not cover the new paths). gc removes the records of trees it no
 * longer keeps.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
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

/** Per-tree records of left-out paths (see the module docstring). */
export class LeftOutRecords {
  /** Parsed records, most recently used last. */
  private readonly sets = new Map<string, Set<string>>();
  /**
   * Records grown since the last `save`, not on disk yet (never dropped from memory before they are written);
   * `joined` once what was on disk for the tree is in `set` (a track adds without reading: `load` or `save` joins).
   */
  private readonly unsaved = new Map<string, { set: Set<string>; joined: boolean }>();
  /** True once this object made sure the records folder exists. */
  private dirMade = false;

  constructor(private readonly dir: string) {}

  private file(tree: string): string {
    return join(this.dir, tree);
  }

  /** The record of `tree`, or undefined when there is none. */
  private load(tree: string): Set<string> | undefined {
    const held = this.unsaved.get(tree);
    if (held && !held.joined) {
      for (const p of this.read(tree) ?? []) held.set.add(p);
      held.joined = true;
    }
    if (held) return held.set;
    const have = this.sets.get(tree);
    if (have) {
      this.sets.delete(tree);
      this.sets.set(tree, have);
      return have;
    }
    const set = this.read(tree);
    if (set) this.remember(tree, set);
    return set;
  }

  /** The record of `tree` on disk, or undefined when there is none (or it cannot be read). */
  private read(tree: string): Set<string> | undefined {
    // Most trees a track produces are new: look before reading, so a missing record costs no thrown error.
    if (!existsSync(this.file(tree))) return undefined;
    try {
      return parseRecord(readFileSync(this.file(tree), 'utf8'));
    } catch {
      return undefined;
    }
  }

  private remember(tree: string, set: Set<string>): void {
    this.sets.set(tree, set);
    while (this.sets.size > CACHE) this.sets.delete(this.sets.keys().next().value as string);
  }

  /**
   * Adds `paths` (files, and folders ending in `/`) to the record of `tree`. A tree with no record on disk gets
   * its record in memory, written by `save` (joined with what is on disk then): a crash before that leaves no
   * record, which covers every path. A tree that has one on disk (a state met again) gets it rewritten now when it
   * grows — a crash must not leave the smaller one standing alone. Nothing is written when it does not grow.
   */
  record(tree: string, paths: readonly string[]): void {
    const held = this.unsaved.get(tree);
    if (held) {
      for (const p of paths) held.set.add(p);
      return;
    }
    const old = this.sets.get(tree);
    if (old && paths.every((p) => old.has(p))) return;
    if (!existsSync(this.file(tree))) {
      this.unsaved.set(tree, { set: new Set([...(old ?? []), ...paths]), joined: true });
      this.sets.delete(tree);
      return;
    }
    const disk = this.read(tree);
    const set = new Set([...(disk ?? []), ...(old ?? []), ...paths]);
    if (disk && set.size === disk.size) {
      this.remember(tree, disk);
      return;
    }
    this.write(tree, set);
  }

  /** True when records are waiting for `save`. */
  get dirty(): boolean {
    return this.unsaved.size > 0;
  }

  /**
   * Writes every record grown since the last call (temp file, rename), each joined with what is on disk for its
   * tree now (another process may have added to it meanwhile: a record only ever grows). Throws on a write error;
   * the records not written stay in memory for the next call.
   */
  save(): void {
    for (const [tree, { set }] of this.unsaved) {
      for (const p of this.read(tree) ?? []) set.add(p);
      this.write(tree, set);
      this.unsaved.delete(tree);
    }
  }

  /** Writes `set` as the record of `tree` (temp file, rename) and keeps it parsed. */
  private write(tree: string, set: Set<string>): void {
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
    this.remember(tree, set);
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
