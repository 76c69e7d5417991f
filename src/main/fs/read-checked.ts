/**
 * Reading a file the way every tool and the snapshot walk must (the hostile review: `/proc` files that report
 * size 0 were read without limit, 6.5 GB in 30 s; a folder swapped for an outward symlink between the boundary
 * check and the read let read and grep return outside files):
 *   - open with O_NOFOLLOW (a symlink at the last component is never followed: callers pass REAL paths, so a link
 *     there was swapped in after the check) and O_NONBLOCK (a FIFO never blocks the open);
 *   - check what was opened: on Linux the descriptor's `/proc/self/fd/N` link must name exactly the path that was
 *     checked (a swapped folder on the way shows up as another path); elsewhere the descriptor's device and inode
 *     must equal those of the path's lstat (a swap between the two calls is not excluded there);
 *   - read at most `max` bytes and one more, by bytes actually read, never by the size fstat reports.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  promises as fsp,
  readlinkSync,
  readSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { FD_PATHS } from './pinned-dir';

/** Flags of every checked open for reading. */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** The path descriptor `fd` holds on Linux ('' when unknown). */
export function fdPath(fd: number): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return '';
  }
}

/**
 * Whether descriptor `fd` holds the file or folder at `real` (an absolute real path). Linux: its `/proc/self/fd`
 * link equals `real`. Elsewhere: same device and inode as `lstat(real)`. `st` is the descriptor's fstat when the
 * caller has it.
 */
export function holds(fd: number, real: string, st?: Stats): boolean {
  if (FD_PATHS) return fdPath(fd) === real;
  try {
    const mine = st ?? fstatSync(fd);
    const there = lstatSync(real);
    return mine.dev === there.dev && mine.ino === there.ino;
  } catch {
    return false;
  }
}

/** Bytes read and whether the file holds more than the limit (`over`: `bytes` then holds exactly `max` bytes). */
export interface Bounded {
  bytes: Buffer;
  over: boolean;
}

/**
 * Buffer sizes are whole pages: some pseudo-files only accept reads of whole records (`/proc/<pid>/pagemap`:
 * multiples of 8 bytes), and the limit + 1 byte that tells "more" is rounded up to the page.
 */
const PAGE = 4096;
const pages = (n: number): number => Math.ceil(n / PAGE) * PAGE;

function firstSize(max: number, hint: number): number {
  return pages(Math.min(max + 1, Math.max(hint + 1, 16 * 1024)));
}

function grown(buf: Buffer, len: number, max: number): Buffer {
  const next = Buffer.allocUnsafe(Math.min(pages(max + 1), buf.length * 2));
  buf.copy(next, 0, 0, len);
  return next;
}

function finish(buf: Buffer, len: number, max: number): Bounded {
  const n = Math.min(len, max);
  // A buffer grown for a size-0 pseudo-file may be twice what was read: keep only the bytes.
  const bytes = n === buf.length ? buf : n < buf.length / 2 ? Buffer.from(buf.subarray(0, n)) : buf.subarray(0, n);
  return { bytes, over: len > max };
}

/**
 * Read from `fd`'s current position until end of file or `max` + 1 bytes (so `over` is known without reading
 * further). `hint` (e.g. fstat's size) only sizes the first buffer. Throws the fs error (EAGAIN on a FIFO…).
 * `scratch`: a buffer the caller reuses across reads; when the first buffer fits in it, the bytes are read there
 * and copied out at their exact size (a read of many small files then allocates no 16 KiB buffer per file —
 * small copies come from Node's shared pool). The same reads are made either way.
 */
export function readBoundedSync(fd: number, max: number, hint = 0, scratch?: Buffer): Bounded {
  const first = firstSize(max, hint);
  let buf: Buffer = scratch && first <= scratch.length ? scratch.subarray(0, first) : Buffer.allocUnsafe(first);
  let len = 0;
  for (;;) {
    if (len > max) break;
    if (len === buf.length) buf = grown(buf, len, max);
    const n = readSync(fd, buf, len, buf.length - len, null);
    if (n === 0) break;
    len += n;
  }
  if (scratch && buf.buffer === scratch.buffer) {
    const n = Math.min(len, max);
    return { bytes: Buffer.from(buf.subarray(0, n)), over: len > max };
  }
  return finish(buf, len, max);
}

/** `readBoundedSync` on an open FileHandle (async). */
export async function readBounded(handle: FileHandle, max: number, hint = 0): Promise<Bounded> {
  let buf: Buffer = Buffer.allocUnsafe(firstSize(max, hint));
  let len = 0;
  for (;;) {
    if (len > max) break;
    if (len === buf.length) buf = grown(buf, len, max);
    const { bytesRead } = await handle.read(buf, len, buf.length - len, null);
    if (bytesRead === 0) break;
    len += bytesRead;
  }
  return finish(buf, len, max);
}

/** A checked read: the bytes and the descriptor's stat, or why not (`moved`: the path led elsewhere when opened). */
export type CheckedRead =
  | { ok: true; bytes: Buffer; st: Stats }
  | {
      ok: false;
      why: 'missing' | 'moved' | 'directory' | 'not_regular' | 'too_large' | 'io';
      errno?: string;
      opened?: string;
      st?: Stats;
    };

function openFailure(e: unknown): CheckedRead {
  const errno = (e as NodeJS.ErrnoException).code;
  if (errno === 'ENOENT' || errno === 'ENOTDIR') return { ok: false, why: 'missing', errno };
  if (errno === 'ELOOP') return { ok: false, why: 'moved', errno, opened: 'a symbolic link' };
  if (errno === 'EISDIR') return { ok: false, why: 'directory', errno };
  return { ok: false, why: 'io', errno };
}

function judged(fd: number, real: string, st: Stats, max: number): CheckedRead | undefined {
  if (!holds(fd, real, st)) return { ok: false, why: 'moved', opened: fdPath(fd) || 'another file', st };
  if (st.isDirectory()) return { ok: false, why: 'directory', st };
  if (!st.isFile()) return { ok: false, why: 'not_regular', st };
  if (st.size > max) return { ok: false, why: 'too_large', st };
  return undefined;
}

/**
 * Open `real` (a real path) checked and read at most `max` bytes of it (see the module docstring). Never throws:
 * `too_large` also when more than `max` bytes arrive although the reported size was smaller.
 */
export async function readChecked(real: string, max: number): Promise<CheckedRead> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(real, READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  try {
    const st = await handle.stat();
    const refused = judged(handle.fd, real, st, max);
    if (refused) return refused;
    const read = await readBounded(handle, max, st.size);
    return read.over ? { ok: false, why: 'too_large', st } : { ok: true, bytes: read.bytes, st };
  } catch (e) {
    return { ok: false, why: 'io', errno: (e as NodeJS.ErrnoException).code };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `readChecked`, synchronously (the snapshot store). */
export function readCheckedSync(real: string, max: number): CheckedRead {
  let fd: number;
  try {
    fd = openSync(real, READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  try {
    const st = fstatSync(fd);
    const refused = judged(fd, real, st, max);
    if (refused) return refused;
    const read = readBoundedSync(fd, max, st.size);
    return read.over ? { ok: false, why: 'too_large', st } : { ok: true, bytes: read.bytes, st };
  } catch (e) {
    return { ok: false, why: 'io', errno: (e as NodeJS.ErrnoException).code };
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries of folder `real` (a real path), read from the folder that was opened and checked — never through a
 * symlink swapped in at the last component or on the way. Undefined when the folder is gone, moved or unreadable.
 */
export async function readDirChecked(real: string): Promise<Dirent[] | undefined> {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    if (!holds(fd, real)) return undefined;
    return await fsp.readdir(FD_PATHS ? `/proc/self/fd/${fd}` : real, { withFileTypes: true });
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
