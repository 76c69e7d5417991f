/**
 * Folders held by descriptor (openat without openat). Node has no openat/renameat, so a write that names
 * `<root>/a/b/f` resolves `a` and `b` again at every call — and a folder swapped for a symlink between the check
 * and the write sends the write outside the project (the hostile review's race: 81 of 900 writes escaped). On
 * Linux a descriptor's `/proc/self/fd/N` entry is a link the kernel resolves to the very folder it holds, not to
 * a path, so `/proc/self/fd/N/f` means "f in THAT folder" however its path changes afterwards.
 *
 * `PinnedDirs` opens the root once (checked to be the real root), then each folder below it relative to its
 * already-pinned parent with O_NOFOLLOW | O_DIRECTORY: a symlink or a file where a folder is expected is
 * refused when it is met (never followed), and nothing after that can redirect the path. Missing folders are
 * created through their pinned parent when asked (and reported, so a rollback can remove them).
 *
 * Where `/proc/self/fd` does not exist (macOS, Windows) the same calls check each folder with lstat and return
 * plain paths: a swap between that check and the write is not excluded there (the platform offers no way from
 * Node); the write side's last line of defence is then the temp file's O_EXCL | O_NOFOLLOW open.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Whether descriptor paths (`/proc/self/fd/N`) work here; decided once. */
export const FD_PATHS: boolean = ((): boolean => {
  if (process.platform !== 'linux') return false;
  try {
    const fd = openSync('/', constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === '/';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
})();

/** Why a folder could not be pinned: `ELINK` a symlink on the way, `ENOTDIR` a file, `ENOENT` missing, `EMOVED` the root moved. */
export type PinCode = 'ELINK' | 'ENOTDIR' | 'ENOENT' | 'EMOVED';

/** A folder on the way could not be pinned (see PinCode); `rel` names it (root-relative, '' the root). */
export class PinError extends Error {
  constructor(
    readonly code: PinCode,
    readonly rel: string,
  ) {
    super(
      code === 'ELINK'
        ? `${rel} is a symbolic link: nothing is written or read through it`
        : code === 'ENOTDIR'
          ? `${rel} is a file where a folder is needed`
          : code === 'ENOENT'
            ? `the folder ${rel} does not exist`
            : `the project folder moved (it no longer resolves to where it was opened)`,
    );
  }
}

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Open folders kept at most (least recently used closed first; a path handed out is used before the next call). */
const MAX_OPEN = 256;

/** What is at `p` (not followed): a real folder, or why it cannot be one. */
function kind(p: string): 'dir' | 'ELINK' | 'ENOTDIR' | 'ENOENT' {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? 'ELINK' : st.isDirectory() ? 'dir' : 'ENOTDIR';
  } catch {
    return 'ENOENT';
  }
}

/** Pinned folders under one real root (see the module docstring). Call `close()` when done. */
export class PinnedDirs {
  private readonly fds = new Map<string, number>();
  /** Folders this instance created, root-relative, in creation order. */
  readonly created: string[] = [];

  /** `root` must be a real path (symlinks resolved): on Linux the root descriptor is checked against it. */
  constructor(readonly root: string) {}

  /**
   * A path naming folder `rel` (root-relative, '/'-separated, '' = root) that later path changes cannot redirect:
   * `/proc/self/fd/N` on Linux, the plain path elsewhere. With `create`, missing folders are made (listed in
   * `created`); `'make'` makes `rel` first (the caller knows it is missing: one mkdir instead of a failed open).
   * Throws PinError; other fs errors (EACCES…) as they are.
   */
  dir(rel: string, create: boolean | 'make' = false): string {
    if (create === 'make' && rel !== '' && !this.fds.has(rel)) {
      const slash = rel.lastIndexOf('/');
      try {
        mkdirSync(`${this.dir(slash < 0 ? '' : rel.slice(0, slash), true)}/${rel.slice(slash + 1)}`);
        this.created.push(rel);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    if (!FD_PATHS) return this.checkedPath(rel, create);
    return `/proc/self/fd/${this.fd(rel, create)}`;
  }

  /** A path naming entry `rel` (a file, link or folder name) inside its pinned parent folder. */
  at(rel: string, createParents = false): string {
    const slash = rel.lastIndexOf('/');
    return `${this.dir(slash < 0 ? '' : rel.slice(0, slash), createParents)}/${rel.slice(slash + 1)}`;
  }

  /** Forget a pinned folder (after it was removed), and every pinned folder below it. */
  drop(rel: string): void {
    for (const [k, fd] of this.fds) {
      if (k === rel || k.startsWith(`${rel}/`) || rel === '') {
        closeSync(fd);
        this.fds.delete(k);
      }
    }
  }

  /** Close every descriptor. */
  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  private fd(rel: string, create: boolean | 'make'): number {
    const have = this.fds.get(rel);
    if (have !== undefined) {
      this.fds.delete(rel); // refresh: most recently used last
      this.fds.set(rel, have);
      return have;
    }
    let fd: number;
    if (rel === '') {
      fd = openSync(this.root, DIR_FLAGS);
      if (readlinkSync(`/proc/self/fd/${fd}`) !== this.root) {
        closeSync(fd);
        throw new PinError('EMOVED', '');
      }
    } else {
      const slash = rel.lastIndexOf('/');
      const parent = slash < 0 ? '' : rel.slice(0, slash);
      const entry = `/proc/self/fd/${this.fd(parent, create)}/${rel.slice(slash + 1)}`;
      fd = this.openChild(entry, rel, create);
    }
    this.fds.set(rel, fd);
    while (this.fds.size > MAX_OPEN) {
      const [oldest, ofd] = this.fds.entries().next().value as [string, number];
      closeSync(ofd);
      this.fds.delete(oldest);
    }
    return fd;
  }

  private openChild(entry: string, rel: string, create: boolean | 'make'): number {
    try {
      return openSync(entry, DIR_FLAGS);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'ENOTDIR') throw e;
      const why = code === 'ENOENT' ? 'ENOENT' : kind(entry);
      if (why === 'dir') return openSync(entry, DIR_FLAGS); // a link was swapped back meanwhile: open what is there now
      if (why !== 'ENOENT' || !create) throw new PinError(why, rel);
    }
    mkdirSync(entry);
    this.created.push(rel);
    return openSync(entry, DIR_FLAGS);
  }

  /** The fallback without descriptor paths: lstat every folder on the way (refusing links), create when asked. */
  private checkedPath(rel: string, create: boolean | 'make'): string {
    let p = this.root;
    let sub = '';
    for (const name of rel === '' ? [] : rel.split('/')) {
      p = path.join(p, name);
      sub = sub === '' ? name : `${sub}/${name}`;
      const why = kind(p);
      if (why === 'dir') continue;
      if (why !== 'ENOENT' || !create) throw new PinError(why, sub);
      mkdirSync(p);
      this.created.push(sub);
    }
    return p;
  }
}
