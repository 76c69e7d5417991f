/**
 * Putting a journaled transaction's files back (journal.ts): the one rollback both an in-process failure of an
 * all-or-nothing write and the recovery after a kill run. Per step, newest first, judged on what is on disk NOW:
 *   - the temp file beside the target is removed if it is still there;
 *   - the target holds what the step was to leave there (new bytes, new link, or nothing for a removal): the old
 *     state comes back — the backup renamed into place (or copied beside it and renamed, across file systems), the
 *     old link recreated, a new file removed where there was none, an emptied folder made again;
 *   - the target still holds the old state: nothing to do;
 *   - anything else (someone changed the file since): it is KEPT as it is and reported, and its backup stays in
 *     `<journalDir>/kept/<id>/` so both versions survive — nothing is ever overwritten that the plan did not make;
 *   - folders the step created are removed again when empty.
 * Every path goes through pinned folders (pinned-dir.ts), so a rollback cannot be redirected out of the root.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { blobId, type Plan, type PlanStep } from './journal';
import { PinError, PinnedDirs } from './pinned-dir';

/** A file a rollback left as it found it, and why; `backup` is where the old bytes were kept (if any). */
export interface KeptPath {
  rel: string;
  reason: 'changed_since' | 'path_changed' | 'restore_failed';
  backup?: string;
}

/** What a rollback did, root-relative paths. */
export interface RollbackOutcome {
  restored: string[];
  removed: string[];
  kept: KeptPath[];
  tempsRemoved: number;
}

function lstatAt(pins: PinnedDirs, rel: string): Stats | undefined | 'blocked' {
  try {
    return lstatSync(pins.at(rel), { throwIfNoEntry: false });
  } catch (e) {
    if (e instanceof PinError) return e.code === 'ENOENT' ? undefined : 'blocked';
    throw e;
  }
}

function holdsNew(pins: PinnedDirs, s: PlanStep, st: Stats | undefined): boolean {
  const n = s.new;
  if (n === null) return st === undefined;
  if (n.kind === 'link') return st?.isSymbolicLink() === true && readlinkSync(pins.at(s.rel)) === n.target;
  return st?.isFile() === true && (n.size < 0 || st.size === n.size) && blobId(readFileSync(pins.at(s.rel))) === n.oid;
}

function holdsOld(pins: PinnedDirs, s: PlanStep, st: Stats | undefined, backup: string | undefined): boolean {
  const o = s.old;
  if (o === null) return st === undefined;
  if (o.kind === 'dir') return st?.isDirectory() === true;
  if (o.kind === 'link') return st?.isSymbolicLink() === true && readlinkSync(pins.at(s.rel)) === o.target;
  if (!st?.isFile() || backup === undefined) return false;
  const b = lstatSync(backup, { throwIfNoEntry: false });
  if (!b) return false;
  if (b.ino === st.ino && b.dev === st.dev) return true; // the backup is a hard link to this very file
  return b.size === st.size && readFileSync(backup).equals(readFileSync(pins.at(s.rel)));
}

/** Bring the backup at `backup` to `rel`: a rename when both share a file system, else copy beside + rename. */
function putBackup(pins: PinnedDirs, rel: string, temp: string, backup: string, mode: number): void {
  try {
    renameSync(backup, pins.at(rel));
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
  }
  const tmp = pins.at(temp);
  copyFileSync(backup, tmp, constants.COPYFILE_EXCL);
  const fd = openSync(tmp, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, pins.at(rel));
}

/** Restore the old state of `s` over what is there now (`st`). */
function restoreOld(
  pins: PinnedDirs,
  s: PlanStep,
  st: Stats | undefined,
  backup: string | undefined,
): 'restored' | 'removed' {
  const o = s.old;
  const temp = s.temp || `${s.rel}.landfall-rollback`;
  if (o === null) {
    if (st) unlinkSync(pins.at(s.rel));
    return 'removed';
  }
  if (o.kind === 'dir') {
    if (st) unlinkSync(pins.at(s.rel));
    mkdirSync(pins.at(s.rel, true));
    return 'restored';
  }
  pins.dir(path.posix.dirname(s.rel) === '.' ? '' : path.posix.dirname(s.rel), true);
  if (o.kind === 'link') {
    symlinkSync(o.target, pins.at(temp));
    renameSync(pins.at(temp), pins.at(s.rel));
    return 'restored';
  }
  putBackup(pins, s.rel, temp, backup as string, o.mode);
  return 'restored';
}

function removeTemp(pins: PinnedDirs, s: PlanStep): boolean {
  if (!s.temp) return false;
  try {
    unlinkSync(pins.at(s.temp));
    return true;
  } catch {
    return false; // never staged, already renamed, or its folder is gone
  }
}

function removeMade(pins: PinnedDirs, s: PlanStep): void {
  for (const d of [...s.made].reverse()) {
    try {
      rmdirSync(pins.at(d));
      pins.drop(d);
    } catch {
      // not empty, or gone
    }
  }
}

function rollStep(pins: PinnedDirs, s: PlanStep, txDir: string, out: RollbackOutcome): void {
  if (removeTemp(pins, s)) out.tempsRemoved++;
  const backup = s.old?.kind === 'file' ? path.join(txDir, s.old.backup) : undefined;
  const st = lstatAt(pins, s.rel);
  if (st === 'blocked') {
    out.kept.push({ rel: s.rel, reason: 'path_changed', ...(backup ? { backup } : {}) });
    return;
  }
  if (!holdsOld(pins, s, st, backup)) {
    if (!holdsNew(pins, s, st)) {
      out.kept.push({ rel: s.rel, reason: 'changed_since', ...(backup ? { backup } : {}) });
      return;
    }
    try {
      (restoreOld(pins, s, st, backup) === 'removed' ? out.removed : out.restored).push(s.rel);
    } catch {
      out.kept.push({ rel: s.rel, reason: 'restore_failed', ...(backup ? { backup } : {}) });
      return;
    }
  }
  removeMade(pins, s);
}

/**
 * Roll `plan` back (see the module docstring); `txDir` is the transaction's own folder (where its backups are).
 * Never throws for one file: a file that cannot be judged or put back is kept and listed.
 */
export function rollBack(plan: Plan, txDir: string): RollbackOutcome {
  const out: RollbackOutcome = { restored: [], removed: [], kept: [], tempsRemoved: 0 };
  const pins = new PinnedDirs(plan.root);
  try {
    for (const s of [...plan.steps].reverse()) {
      try {
        rollStep(pins, s, txDir, out);
      } catch {
        out.kept.push({ rel: s.rel, reason: 'path_changed' });
      }
    }
  } finally {
    pins.close();
  }
  return out;
}

/**
 * After a rollback: the transaction folder goes, unless some file was kept — then it moves to
 * `<journals>/kept/<id>/` so the old bytes of the kept files survive, and their `backup` paths are updated.
 */
export function settle(journalsDir: string, txDir: string, outcome: RollbackOutcome): void {
  const backups = outcome.kept.filter((k) => k.backup !== undefined);
  if (backups.length === 0) {
    rmSync(txDir, { recursive: true, force: true });
    return;
  }
  const keptDir = path.join(journalsDir, 'kept', path.basename(txDir));
  mkdirSync(path.dirname(keptDir), { recursive: true });
  renameSync(txDir, keptDir);
  for (const k of backups) k.backup = path.join(keptDir, path.basename(k.backup as string));
}
