/**
 * Writes snapshot content back into the work tree — the only code that writes there. Safety rules (B35):
 * a path is refused when a component is empty, `.`, `..` or `.git` (the user's and nested repositories' git data
 * is never written); every parent folder is checked with lstat and a symlinked parent is refused, so nothing is
 * written through a link or outside the work tree; files are opened with O_NOFOLLOW after any symlink at the
 * final name was removed (the link itself, never its target). Contents equal to what is on disk are not
 * rewritten (mtimes stay, editors do not reload). Folders emptied by deletions are removed afterwards.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { LandfallFailure } from '../../shared/errors';
import type { ObjectDb } from './object-db';
import type { EntryMode } from './tree';

/** A failure to write one path: becomes a `failed` row of the report. */
function refuse(path: string, reason: string): never {
  throw new LandfallFailure({
    code: 'io_error',
    message: reason,
    hint: 'fix the path by hand, then revert again',
    data: { path },
  });
}

function lstatOrUndefined(abs: string): Stats | undefined {
  try {
    // throwIfNoEntry: a missing path is the common case of a full restore, and an exception per file is costly.
    return lstatSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Writes and deletes worktree-relative paths under `root` safely. One instance per restore or revert. */
export class WorktreeWriter {
  private readonly safeDirs = new Set<string>(['']);
  private readonly touchedDirs = new Set<string>();
  /** Folders this writer created: nothing else can be in them but what it wrote (checked again by O_EXCL). */
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly db: ObjectDb,
  ) {}

  /** Throws unless `path` is a clean relative path outside any `.git`. */
  static check(path: string): void {
    const parts = path.split('/');
    for (const p of parts) {
      if (p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git' || p.includes('\0')) {
        refuse(path, `refused path ${JSON.stringify(path)}: empty, relative, or inside a .git folder`);
      }
    }
  }

  /** Makes sure every parent folder of `path` is a real folder inside the root (created when `create`). */
  private parents(path: string, create: boolean): boolean {
    const parts = path.split('/');
    let rel = '';
    for (let i = 0; i < parts.length - 1; i++) {
      rel = rel === '' ? (parts[i] as string) : `${rel}/${parts[i]}`;
      if (this.safeDirs.has(rel)) continue;
      const st = lstatOrUndefined(`${this.root}/${rel}`);
      if (!st) {
        if (!create) return false;
        mkdirSync(`${this.root}/${rel}`);
        this.madeDirs.add(rel);
      } else if (st.isSymbolicLink()) {
        refuse(path, `not written: parent ${rel} is a symlink (restore never writes through links)`);
      } else if (!st.isDirectory()) {
        refuse(path, `not written: ${rel} is a file where the snapshot has a folder`);
      }
      this.safeDirs.add(rel);
    }
    return true;
  }

  /** Writes blob `oid` at `path` with `mode` (file, executable, or symlink). Returns false when already equal. */
  write(path: string, mode: EntryMode, oid: string): boolean {
    WorktreeWriter.check(path);
    const obj = this.db.read(oid);
    if (!obj) refuse(path, `the store lacks blob ${oid} (removed by gc?)`);
    this.parents(path, true);
    const abs = `${this.root}/${path}`;
    // In a folder made by this writer (a full restore into an emptied tree) the name is free: no lstat. Should
    // something appear there meanwhile, the O_EXCL open below fails and the file is opened as found, never
    // through a link (O_NOFOLLOW).
    const slash = path.lastIndexOf('/');
    const st = slash > 0 && this.madeDirs.has(path.slice(0, slash)) ? undefined : lstatOrUndefined(abs);
    if (st?.isDirectory()) {
      try {
        rmdirSync(abs);
      } catch {
        refuse(path, `not written: ${path} is a non-empty folder on disk`);
      }
    }
    if (mode === '120000') return this.writeLink(abs, st?.isDirectory() ? undefined : st, obj.content);
    if (st?.isSymbolicLink()) unlinkSync(abs);
    else if (
      st?.isFile() &&
      st.size === obj.content.length &&
      sameExec(st.mode, mode) &&
      readFileSync(abs).equals(obj.content)
    )
      return false;
    const { fd, created } = openForWrite(abs, mode, !st);
    try {
      for (let off = 0; off < obj.content.length;) off += writeSync(fd, obj.content, off, obj.content.length - off);
      // A file this call created got 0o666 & ~umask: no exec bit, right for 100644, so no fstat is needed.
      if (created && mode !== '100755') return true;
      const cur = fstatSync(fd).mode & 0o7777;
      const want = mode === '100755' ? cur | ((cur & 0o444) >> 2) : cur & ~0o111;
      if (want !== cur) fchmodSync(fd, want);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  private writeLink(abs: string, st: Stats | undefined, target: Buffer): boolean {
    if (st?.isSymbolicLink() && readlinkSync(abs, { encoding: 'buffer' }).equals(target)) return false;
    if (st) unlinkSync(abs);
    symlinkSync(target.toString('utf8'), abs);
    return true;
  }

  /** Deletes the file or link at `path` (never a folder, never through a link). Returns false when no file is there. */
  remove(path: string): boolean {
    WorktreeWriter.check(path);
    if (!this.parents(path, false)) return false;
    const abs = `${this.root}/${path}`;
    const st = lstatOrUndefined(abs);
    if (!st || st.isDirectory()) return false; // no file there (a folder is not the file being removed)
    unlinkSync(abs);
    const slash = path.lastIndexOf('/');
    if (slash > 0) this.touchedDirs.add(path.slice(0, slash));
    return true;
  }

  /** Removes folders that deletions left empty, deepest first, never the root. */
  pruneEmptyDirs(): void {
    const all = new Set<string>();
    for (const d of this.touchedDirs) {
      for (let p = d; p !== ''; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') all.add(p);
    }
    const order = [...all].sort((a, b) => b.split('/').length - a.split('/').length);
    for (const d of order) {
      try {
        rmdirSync(`${this.root}/${d}`);
        this.safeDirs.delete(d);
      } catch {
        // not empty (ignored or untracked files remain) or already gone: leave it
      }
    }
    this.touchedDirs.clear();
  }
}

/**
 * Opens `abs` for writing without following a link. When nothing was there (`fresh`), O_EXCL proves this call
 * created the file (so its permission bits are known); if something appeared meanwhile, it is opened as it is.
 */
function openForWrite(abs: string, mode: EntryMode, fresh: boolean): { fd: number; created: boolean } {
  const perm = mode === '100755' ? 0o777 : 0o666;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  if (fresh) {
    try {
      return { fd: openSync(abs, flags | constants.O_EXCL, perm), created: true };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return { fd: openSync(abs, flags, perm), created: false };
}

function sameExec(stMode: number, mode: EntryMode): boolean {
  return ((stMode & 0o100) !== 0) === (mode === '100755');
}
