/**
 * The file operations of one transaction step (transaction.ts): planning (what is there now, backed up into the
 * journal), staging the temp file (sync, or async so many fsyncs overlap), placing it by rename, removals,
 * pruning emptied folders and syncing folders. Every path is built from pinned folders (pinned-dir.ts).
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { promises as fsp } from 'node:fs';
import { blobId, type Journal, type PlanStep } from './journal';
import { readBoundedSync } from './read-checked';
import { PinError, type PinnedDirs } from './pinned-dir';
import type { Put, TxFailure, TxOptions, TxStep } from './tx-types';

/** A step with its plan, the lstat of its target at plan time (undefined: nothing there), and whether its temp exists. */
export interface Work {
  step: TxStep;
  plan: PlanStep;
  st: Stats | undefined;
  staged: boolean;
  /** Told to `options.progress` as written (each step is told once; a flag here, not a set of 100,000). */
  told?: boolean;
}

/** Marker in every temp file name, so stale ones are recognisable. */
export const TEMP_MARK = '.landfall-tmp-';

/** A failure row: the path, the fs error code (or PinError code) and the message. */
export function failureOf(rel: string, e: unknown): TxFailure {
  if (e instanceof PinError) return { rel, code: e.code, message: e.message, at: e.rel };
  return { rel, code: (e as NodeJS.ErrnoException).code ?? 'EIO', message: (e as Error).message };
}
function checkRel(rel: string): void {
  for (const part of rel.split('/'))
    if (part === '' || part === '.' || part === '..' || part.includes('\0'))
      throw Object.assign(new Error(`bad path ${JSON.stringify(rel)}`), { code: 'EINVAL' });
}

export function lstatOrUndefined(p: string): Stats | undefined {
  return lstatSync(p, { throwIfNoEntry: false });
}

/**
 * Folders on the way to `rel` that do not exist (shallowest first); `missing` remembers folders already found
 * missing in this plan, so a restore into an emptied tree probes each folder once. A link or file on the way that
 * this same transaction removes (`removing`: a link replaced by a folder) counts as missing. Throws PinError for
 * any other link or file on the way.
 */
function missingFolders(
  pins: PinnedDirs,
  rel: string,
  missing: Set<string>,
  removing: Set<string>,
  known: Map<string, string[]>,
): string[] {
  // Every file of one folder gets the same list (what is missing stays missing while planning): computed once
  // and shared — one list per file was ~600,000 strings on a restore of 100,000 files into an emptied folder.
  const slash = rel.lastIndexOf('/');
  const parent = slash < 0 ? '' : rel.slice(0, slash);
  const done = known.get(parent);
  if (done) return done;
  const parts = rel.split('/').slice(0, -1);
  let i = parts.length;
  for (; i > 0; i--) {
    const dir = parts.slice(0, i).join('/');
    if (missing.has(dir)) continue;
    try {
      pins.dir(dir);
      break;
    } catch (e) {
      if (!(e instanceof PinError)) throw e;
      if (e.code !== 'ENOENT' && !removing.has(e.rel)) throw e;
      if (e.rel !== dir) {
        // the link or file is further up: everything from it down is missing once it is removed
        const depth = e.rel.split('/').length;
        for (let k = depth; k <= i; k++) missing.add(parts.slice(0, k).join('/'));
        i = depth;
        continue;
      }
      missing.add(dir);
    }
  }
  const made: string[] = [];
  for (let k = i; k < parts.length; k++) made.push(parts.slice(0, k + 1).join('/'));
  if (made.length > 0) known.set(parent, made);
  return made;
}

/** Temp name beside `rel` (a long name is shortened so the temp name stays within NAME_MAX). */
function tempName(rel: string, tag: string, i: number): string {
  const slash = rel.lastIndexOf('/');
  const base = rel.slice(slash + 1).slice(0, 100);
  return `${slash < 0 ? '' : rel.slice(0, slash + 1)}.${base}${TEMP_MARK}${tag}-${i}`;
}

/** The bytes a file step writes (read now when the caller handed a reader, so large sets are never all in memory). */
export function contentOf(put: Extract<Put, { kind: 'file' }>): Uint8Array {
  return typeof put.bytes === 'function' ? put.bytes(put.oid as string) : put.bytes;
}

function sameExec(mode: number, put: Extract<Put, { kind: 'file' }>): boolean {
  if (put.perm !== undefined) return (mode & 0o7777) === put.perm;
  return put.exec === undefined || ((mode & 0o100) !== 0) === put.exec;
}

/** With `skipSame`: whether the target already holds exactly what the step would put there. */
function alreadyThere(pins: PinnedDirs, step: TxStep, st: Stats): boolean {
  const put = step.put;
  if (put.kind === 'link') return st.isSymbolicLink() && readlinkSync(pins.at(step.rel)) === put.target;
  if (put.kind !== 'file' || !st.isFile() || !sameExec(st.mode, put)) return false;
  const want = contentOf(put);
  if (want.length !== st.size) return false;
  const fd = openSync(pins.at(step.rel), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const have = readBoundedSync(fd, want.length, want.length);
    return !have.over && Buffer.from(want.buffer, want.byteOffset, want.length).equals(have.bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Plan one step: the folders it must create, what is at its target (backed up into the journal when it is a
 * file), its temp name. 'same' when `skipSame` finds the target already as wanted (nothing to do).
 */
export function planOne(
  pins: PinnedDirs,
  journal: Journal,
  step: TxStep,
  i: number,
  missing: Set<string>,
  removing: Set<string>,
  backups: boolean,
  known: Map<string, string[]> = new Map(),
): Work | 'same' {
  checkRel(step.rel);
  const made = missingFolders(pins, step.rel, missing, removing, known);
  const st = made.length > 0 ? undefined : lstatOrUndefined(pins.at(step.rel));
  const put = step.put;
  if (st && put.kind !== 'delete' && put.skipSame === true && alreadyThere(pins, step, st)) return 'same';
  let old: PlanStep['old'] = null;
  if (st?.isSymbolicLink()) old = { kind: 'link', target: readlinkSync(pins.at(step.rel)) };
  else if (st?.isDirectory()) old = { kind: 'dir' };
  else if (st) old = { kind: 'file', backup: backups ? journal.backup(pins.at(step.rel)) : '', mode: st.mode & 0o7777 };
  const plannedNew: PlanStep['new'] =
    put.kind === 'file'
      ? typeof put.bytes === 'function'
        ? { kind: 'file', oid: put.oid as string, size: -1 }
        : { kind: 'file', oid: put.oid ?? blobId(put.bytes), size: put.bytes.length }
      : put.kind === 'link'
        ? { kind: 'link', target: put.target }
        : null;
  const temp = put.kind === 'delete' ? '' : tempName(step.rel, journal.id, i);
  return { step, st, staged: false, told: false, plan: { rel: step.rel, temp, new: plannedNew, old, made } };
}

/**
 * Permission bits of a file step's temp: `open` for the O_CREAT (the umask applies), `set` to fchmod afterwards
 * (exact bits asked for, or the old file's bits with the exec bit set or cleared). A new file gets what any new
 * file gets (0o666, or 0o777 when executable, minus the umask): no fchmod.
 */
function modesOf(put: Extract<Put, { kind: 'file' }>, st: Stats | undefined): { open: number; set?: number } {
  if (put.perm !== undefined) return { open: put.perm, set: put.perm };
  const cur = st?.isFile() ? st.mode & 0o7777 : undefined;
  if (cur === undefined) return { open: put.exec === true ? 0o777 : 0o666 };
  if (put.exec === undefined) return { open: cur, set: cur };
  return { open: cur, set: put.exec ? cur | ((cur & 0o444) >> 2) : cur & ~0o111 };
}

/** Write the temp file of `w` (its folder must exist). Answers the bytes written (0 for a link). */
export function stage(pins: PinnedDirs, w: Work, options: TxOptions): number {
  options.hook?.('stage', w.step.rel);
  const put = w.step.put;
  const temp = pins.at(w.plan.temp);
  if (put.kind === 'link') {
    symlinkSync(put.target, temp);
    w.staged = true;
    return 0;
  }
  if (put.kind !== 'file') return 0;
  const mode = modesOf(put, w.st);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode.open,
  );
  w.staged = true;
  try {
    const bytes = contentOf(put);
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
    if (mode.set !== undefined) fchmodSync(fd, mode.set);
    // Only a privileged process may give a file away; for everyone else the new file is theirs, as before.
    if (w.st?.isFile())
      try {
        fchownSync(fd, w.st.uid, w.st.gid);
      } catch {
        // not permitted: the file keeps the writer as owner
      }
    if (options.sync === 'all' || w.st) fsyncSync(fd);
    return bytes.length;
  } finally {
    closeSync(fd);
  }
}

/** `stage`, with the file written and fsync'd asynchronously (callers run several at once so fsyncs overlap). */
export async function stageAsync(pins: PinnedDirs, w: Work, options: TxOptions): Promise<number> {
  const put = w.step.put;
  if (put.kind !== 'file') return stage(pins, w, options);
  options.hook?.('stage', w.step.rel);
  const mode = modesOf(put, w.st);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await fsp.open(pins.at(w.plan.temp), flags, mode.open);
  w.staged = true;
  try {
    const bytes = contentOf(put);
    await handle.writeFile(bytes);
    if (mode.set !== undefined) await handle.chmod(mode.set);
    if (w.st?.isFile()) await handle.chown(w.st.uid, w.st.gid).catch(() => undefined);
    if (options.sync === 'all' || w.st) await handle.sync();
    return bytes.length;
  } finally {
    await handle.close();
  }
}

export function removeTemp(pins: PinnedDirs, w: Work): void {
  if (!w.staged) return;
  try {
    unlinkSync(pins.at(w.plan.temp));
  } catch {
    // gone already
  }
  w.staged = false;
}

/** Put `w` in place: its folder, its temp (when not staged yet), the rename. Answers the bytes staged here. */
export function place(pins: PinnedDirs, w: Work, options: TxOptions, touched: Set<string>): number {
  const slash = w.step.rel.lastIndexOf('/');
  const parent = slash < 0 ? '' : w.step.rel.slice(0, slash);
  for (const d of w.plan.made) pins.dir(d, 'make');
  pins.dir(parent, true);
  const bytes = w.staged ? 0 : stage(pins, w, options);
  const target = pins.at(w.step.rel);
  // In a folder this transaction made there was nothing to look at; elsewhere a folder may stand in the way.
  const now = w.plan.made.length > 0 ? undefined : lstatOrUndefined(target);
  if (now?.isDirectory()) {
    if (!options.replaceEmptyDirs) throw Object.assign(new Error(`${w.step.rel} is a folder`), { code: 'EISDIR' });
    rmdirSync(target); // ENOTEMPTY: a folder with files is never replaced
    pins.drop(w.step.rel);
  }
  options.hook?.('rename', w.step.rel);
  renameSync(pins.at(w.plan.temp), target);
  w.staged = false;
  // A new file where nothing was loses nothing if a power cut takes it: only replaced names need a durable folder.
  if (options.sync === 'all' || w.st) touched.add(parent);
  return bytes;
}

export function remove(
  pins: PinnedDirs,
  w: Work,
  options: TxOptions,
  touched: Set<string>,
  emptied: Set<string>,
): boolean {
  if (w.plan.made.length > 0) return false; // its folder does not exist: nothing there
  const target = pins.at(w.step.rel);
  const now = lstatOrUndefined(target);
  if (!now || now.isDirectory()) return false; // nothing there (a folder is not the file being removed)
  options.hook?.('remove', w.step.rel);
  unlinkSync(target);
  const slash = w.step.rel.lastIndexOf('/');
  touched.add(slash < 0 ? '' : w.step.rel.slice(0, slash));
  if (slash > 0) emptied.add(w.step.rel.slice(0, slash));
  return true;
}

/** Remove folders that removals left empty, deepest first, never the root. */
export function prune(pins: PinnedDirs, emptied: Set<string>): void {
  const all = new Set<string>();
  for (const d of emptied)
    for (let p = d; p !== ''; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') all.add(p);
  for (const d of [...all].sort((a, b) => b.split('/').length - a.split('/').length)) {
    try {
      rmdirSync(pins.at(d));
      pins.drop(d);
    } catch {
      // not empty (ignored or untracked files remain) or gone: leave it
    }
  }
}

/** `syncFolders`, all at once (their fsyncs overlap). */
export async function syncFoldersAsync(pins: PinnedDirs, dirs: Set<string>): Promise<void> {
  await Promise.all(
    [...dirs].map(async (d) => {
      try {
        const handle = await fsp.open(pins.dir(d), constants.O_RDONLY | constants.O_DIRECTORY);
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      } catch {
        // a folder that cannot be synced: the renames are still atomic, only their durability is weaker
      }
    }),
  );
}

export function syncFolders(pins: PinnedDirs, dirs: Set<string>): void {
  for (const d of dirs) {
    try {
      const fd = openSync(pins.dir(d), constants.O_RDONLY | constants.O_DIRECTORY);
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // a folder that cannot be synced: the renames are still atomic, only their durability is weaker
    }
  }
}
