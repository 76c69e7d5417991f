/**
 * The on-disk journal of a multi-file write (transaction.ts), in the app's data folder — never in the project.
 * One folder per transaction, `<journalDir>/<id>/`:
 *   plan.json    the root, the label, the owner (pid and process start time) and, per step, the target, the temp
 *                file name beside it, what goes there (blob id and size, link text, or nothing) and what was there
 *                (nothing, a file whose bytes are backed up as `b<i>`, a link's text, an empty folder), plus the
 *                folders the step had to create;
 *   b<i>         the old bytes of step i: a hard link to the old file when the data folder shares its file system
 *                (O(1), and the project path gets a new inode by rename, so the link keeps the old bytes), else a
 *                copy, fsync'd;
 *   committed    written (fsync'd) after the last change: the transaction completed;
 *   reported     a recovery already reported this committed transaction (folders kept for an intent only).
 * A transaction with an `intent` (tx-types.ts) is named by it, and its folder stays after the commit — without the
 * backups — until its caller wrote the record that follows it and released it (`releaseJournal`).
 * Every backup exists before the plan is written, and the plan is durable before the first change in the
 * project; a plan of one step (its rename is atomic by itself) has no backup and needs no fsync.
 * Otherwise the folder is removed when the transaction ends either way. Recovery (recovery.ts) reads what is left.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  constants,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { dataDirOf, journalDirOf } from './data-dir';

/** What a step puts at its target: a file's blob id (git's sha1 of `blob <size>\0<bytes>`) and size (-1 unknown), a link's text, or nothing. */
export type PlannedNew = { kind: 'file'; oid: string; size: number } | { kind: 'link'; target: string } | null;

/** What was at the target when the transaction was planned. */
export type PlannedOld =
  null | { kind: 'file'; backup: string; mode: number } | { kind: 'link'; target: string } | { kind: 'dir' };

/** One step of a plan (paths root-relative, '/'-separated). */
export interface PlanStep {
  rel: string;
  /** Temp file name beside the target (same folder), or '' for a removal. */
  temp: string;
  new: PlannedNew;
  old: PlannedOld;
  /** Folders missing at plan time that the step creates (shallowest first). */
  made: string[];
}

/** The whole plan of one transaction. */
export interface Plan {
  version: 1;
  id: string;
  label: string;
  root: string;
  pid: number;
  /** The owner's start time (Linux /proc/<pid>/stat field 22), so a reused pid is not taken for the owner. */
  started: string;
  createdAt: string;
  steps: PlanStep[];
  /** The caller's record that follows a commit (tx-types.ts `TxOptions.intent`); the folder is named by it. */
  intent?: string;
}

/**
 * Where transactions are journaled when the caller names no journal folder (a library caller): the `journal/`
 * folder of the default data folder (fs/data-dir.ts `dataDirOf`: `$LANDFALL_DATA_DIR`, else `~/.landfall`) — never
 * a folder in the shared OS temp dir, where the next start would not look and other programs could.
 */
export function defaultJournalDir(): string {
  return journalDirOf(dataDirOf());
}

/** Start time of process `pid` as the kernel counts it ('' where /proc is not available or the process is gone). */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** This process's start time, as plans record it. */
export const OWN_START = processStart(process.pid);

/** True while the process that wrote `plan` is still running (same pid and start time). */
export function ownerAlive(plan: Pick<Plan, 'pid' | 'started'>): boolean {
  if (plan.pid === process.pid && plan.started === OWN_START) return true;
  try {
    process.kill(plan.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return plan.started === '' || processStart(plan.pid) === plan.started;
}

/** git's blob id of `bytes` (what the snapshot store names the same content by). */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function syncPath(p: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(p, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // a folder that cannot be opened for sync (some platforms): the order of writes still holds for a kill
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Text pieces are gathered up to this many characters before each write (see `planText`). */
const WRITE_CHARS = 1 << 20;

function writeDurable(file: string, text: string | Iterable<string>, durable = true): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    const put = (t: string): void => {
      const buf = Buffer.from(t, 'utf8');
      for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
    };
    if (typeof text === 'string') put(text);
    else {
      let parts: string[] = [];
      let n = 0;
      for (const t of text) {
        parts.push(t);
        n += t.length;
        if (n < WRITE_CHARS) continue;
        put(parts.join(''));
        parts = [];
        n = 0;
      }
      put(parts.join(''));
    }
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * `JSON.stringify(plan)` in pieces, a step at a time: the plan of a 100,000-file restore was one ~25 MB string plus
 * its ~25 MB of bytes, made while every step's record was held too.
 */
export function* planText(plan: Plan): Generator<string> {
  const head = JSON.stringify({ ...plan, steps: 0 });
  const at = head.indexOf(',"steps":0');
  if (at < 0) {
    yield JSON.stringify(plan);
    return;
  }
  yield `${head.slice(0, at)},"steps":[`;
  for (let i = 0; i < plan.steps.length; i++) yield `${i === 0 ? '' : ','}${JSON.stringify(plan.steps[i])}`;
  yield `]${head.slice(at + ',"steps":0'.length)}`;
}

/** A journal folder being written by this process. */
export class Journal {
  readonly dir: string;
  private backups = 0;

  private constructor(
    readonly journalDir: string,
    readonly id: string,
  ) {
    this.dir = path.join(journalDir, id);
  }

  /**
   * Create the transaction's folder under `journalDir` (made when missing), named `intent` when given (it must be
   * letters, digits and '-'; an existing folder of that name is an error).
   */
  static create(journalDir: string, intent?: string): Journal {
    mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    if (intent !== undefined && !INTENT_ID.test(intent)) throw new Error(`not an intent id: ${intent}`);
    const id = intent ?? `${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const j = new Journal(journalDir, id);
    mkdirSync(j.dir, { mode: 0o700 });
    return j;
  }

  /** Back up the file at `source` (a path that names it without following links); returns the backup's name. */
  backup(source: string): string {
    const name = `b${this.backups++}`;
    const dest = path.join(this.dir, name);
    try {
      linkSync(source, dest);
      return name;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw e;
    }
    copyFileSync(source, dest, constants.COPYFILE_EXCL);
    syncPath(dest);
    return name;
  }

  /** Path of a backup named by `backup()`. */
  backupPath(name: string): string {
    return path.join(this.dir, name);
  }

  /**
   * Write the plan: from here on a recovery knows every temp name and backup. `durable`: fsync'd with its folder
   * and the journal folder, so it survives a power cut with the backups (every backup exists before the plan is
   * written, so a plan on disk means its backups are complete).
   */
  writePlan(plan: Plan, durable = true): void {
    writeDurable(path.join(this.dir, 'plan.json'), planText(plan), durable);
    if (!durable) return;
    syncPath(this.dir);
    syncPath(this.journalDir);
  }

  /** The last change in the project is done (and durable, as the caller's policy made it). */
  commit(): void {
    writeDurable(path.join(this.dir, 'committed'), '');
  }

  /** Remove the journal folder (after commit, or after a rollback that needs no kept backups). */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** After the commit of an intent's transaction: the backups go, the plan and the mark stay (module docstring). */
  dropBackups(): void {
    dropBackupsIn(this.dir);
  }
}

/** Shape of an intent id (a folder name under the journal folder). */
const INTENT_ID = /^[A-Za-z0-9-]{1,100}$/;

/** Remove the backups (`b<i>`) of the transaction folder `dir`. */
export function dropBackupsIn(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (/^b\d+$/.test(n)) rmSync(path.join(dir, n), { force: true });
}

/**
 * Where the transaction of intent `id` stands: 'committed' (it completed; the caller's record must follow),
 * 'open' (a plan without the mark: its writer still runs, or a recovery has not rolled it back yet), or 'none'
 * (it never began, was abandoned, or was rolled back — nothing of it is on disk).
 */
export function journalOutcome(journalDir: string, id: string): 'committed' | 'open' | 'none' {
  if (!INTENT_ID.test(id)) return 'none';
  const dir = path.join(journalDir, id);
  if (existsSync(path.join(dir, 'committed'))) return 'committed';
  return existsSync(dir) ? 'open' : 'none';
}

/** The caller of intent `id` wrote its record: its committed journal folder goes. Never throws. */
export function releaseJournal(journalDir: string, id: string): void {
  if (!INTENT_ID.test(id)) return;
  rmSync(path.join(journalDir, id), { recursive: true, force: true });
}

/** Mark a kept committed folder as reported by a recovery (so the next recovery does not report it again). */
export function markReported(dir: string): void {
  writeDurable(path.join(dir, 'reported'), '');
}

/** A transaction folder found on disk, as recovery reads it. */
export interface FoundJournal {
  dir: string;
  plan: Plan | undefined;
  committed: boolean;
  /** A kept committed folder a recovery already reported. */
  reported: boolean;
}

/** Read the transaction folder `dir` (a plan that cannot be parsed counts as none: it was never complete). */
export function readJournal(dir: string): FoundJournal {
  let plan: Plan | undefined;
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Plan;
    if (parsed.version === 1 && Array.isArray(parsed.steps)) plan = parsed;
  } catch {
    plan = undefined;
  }
  return {
    dir,
    plan,
    committed: existsSync(path.join(dir, 'committed')),
    reported: existsSync(path.join(dir, 'reported')),
  };
}
