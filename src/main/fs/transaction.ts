/**
 * Every write Landfall makes to the work tree: edits, apply_patch, review rejects, revert, undo, restore, replay
 * seeding (DESIGN §3). One module, so one set of rules:
 *   - atomic per file: new bytes go to a temp file beside the target (O_CREAT | O_EXCL | O_NOFOLLOW, the old
 *     file's permission bits and owner), then a rename replaces the target — never an in-place O_TRUNC write, so a
 *     kill leaves the old or the new file, a symlink at the target is replaced (never followed) and a hard link
 *     to a file outside the project is broken (that file keeps its bytes);
 *   - no path is resolved twice: every folder is pinned by descriptor (pinned-dir.ts), so a folder swapped for an
 *     outward symlink while the write runs cannot redirect it;
 *   - journaled in the data folder (journal.ts): the plan and backups of the old bytes are durable before the
 *     first change; after a kill the next start rolls the whole set back (recovery.ts) and removes every temp;
 *   - `atomic: true` (apply_patch, review, seed, edits): a failure anywhere puts every file back (the same
 *     rollback a recovery runs) — all or nothing; `atomic: false` (restore, revert): a failing file is reported
 *     and the others proceed, while a kill still rolls the whole set back.
 * Durability: a temp file is fsync'd before its rename when it replaces something (`sync: 'replaced'`) or always
 * (`'all'`); a file that is new where nothing was needs no fsync to lose nothing. Folders that changed are
 * fsync'd once at the end.
 *
 * Order: plan and backups → plan written (fsync'd with its folder) → stage the temps whose folder exists →
 * removals → folders emptied by them (when `prune`) → for each write, its folder (created if missing), its temp if
 * not staged yet, the rename → fsync folders → committed → journal removed (with an `intent`: kept without its
 * backups until the caller releases it, tx-types.ts). A one-step transaction without an intent skips the
 * backups, the plan's fsync and the committed mark: its one rename is atomic by itself.
 */
import { Journal, OWN_START, type Plan } from './journal';
import { PinnedDirs } from './pinned-dir';
import { rollBack, settle } from './rollback';
import {
  failureOf,
  place,
  planOne,
  prune,
  remove,
  removeTemp,
  stage,
  stageAsync,
  syncFolders,
  syncFoldersAsync,
  TEMP_MARK,
  type Work,
} from './tx-ops';
import type { TxOptions, TxReport, TxStep } from './tx-types';

export { TEMP_MARK };
export type { Put, TxFailure, TxHook, TxOptions, TxReport, TxStep } from './tx-types';

/** How many temp files an async transaction writes at once (their fsyncs overlap; the disk queue does the rest). */
const STAGE_CONCURRENCY = 16;

/** One transaction's state through its phases (see the module docstring). */
class Tx {
  readonly report: TxReport = { written: [], removed: [], unchanged: [], failed: [], notRestored: [] };
  readonly pins: PinnedDirs;
  readonly journal: Journal;
  work: Work[] = [];
  plan: Plan | undefined;
  /**
   * One step: its rename alone is atomic, so no backup and no durable plan are needed — the plan only names the
   * temp file, for a recovery to remove (a power cut can at worst leave that temp file behind).
   */
  readonly single: boolean;

  constructor(
    readonly steps: readonly TxStep[],
    readonly options: TxOptions,
  ) {
    this.journal = Journal.create(options.journalDir, options.intent);
    this.pins = new PinnedDirs(options.root);
    this.single = steps.length === 1 && options.intent === undefined;
  }

  /** Plan every step and write the plan; false when an atomic transaction already failed (nothing changed). */
  planAll(): boolean {
    const missing = new Set<string>();
    /** Each folder's list of missing folders, shared by the steps in it (tx-ops.ts missingFolders). */
    const made = new Map<string, string[]>();
    const seen = new Set<string>();
    const removing = new Set(this.steps.filter((s) => s.put.kind === 'delete').map((s) => s.rel));
    for (let i = 0; i < this.steps.length; i++) {
      const step = this.steps[i] as TxStep;
      try {
        if (seen.has(step.rel)) throw Object.assign(new Error(`${step.rel} is named twice`), { code: 'EINVAL' });
        seen.add(step.rel);
        const w = planOne(this.pins, this.journal, step, i, missing, removing, !this.single, made);
        if (w === 'same') this.report.unchanged.push(step.rel);
        else this.work.push(w);
      } catch (e) {
        this.report.failed.push(failureOf(step.rel, e));
        if (this.options.atomic) return this.abandon();
      }
      this.options.progress?.('prepare', this.steps.length, 0);
    }
    this.plan = {
      version: 1,
      id: this.journal.id,
      label: this.options.label,
      root: this.options.root,
      pid: process.pid,
      started: OWN_START,
      createdAt: new Date().toISOString(),
      steps: this.work.map((w) => w.plan),
      ...(this.options.intent !== undefined ? { intent: this.options.intent } : {}),
    };
    this.journal.writePlan(this.plan, !this.single);
    return true;
  }

  /** Steps whose temp can be written before anything in the project changes (their folder exists). */
  early(): Work[] {
    return this.work.filter((w) => w.step.put.kind !== 'delete' && w.plan.made.length === 0 && !w.st?.isDirectory());
  }

  /** Tells `options.progress` that `w` was written (or removed), once. */
  wrote(w: Work, bytes: number): void {
    if (!this.options.progress || w.told === true) return;
    w.told = true;
    this.options.progress('write', this.work.length, bytes);
  }

  /** Record a failure; true when the transaction must stop (atomic). */
  fail(w: Work, e: unknown): boolean {
    this.report.failed.push(failureOf(w.step.rel, e));
    removeTemp(this.pins, w);
    return this.options.atomic;
  }

  /** Nothing in the project changed: temps and journal go. Returns false for planAll's caller. */
  abandon(): false {
    for (const w of this.work) removeTemp(this.pins, w);
    this.journal.remove();
    return false;
  }

  /**
   * Removals, pruning, placements. Returns the folders that changed (to fsync before `finish`), or undefined after
   * a failure that stopped the transaction (then `stopped()` puts things back).
   */
  changeAll(): Set<string> | undefined {
    const { pins, options, report } = this;
    const touched = new Set<string>();
    const emptied = new Set<string>();
    const failed = new Set(report.failed.map((f) => f.rel));
    let stop = false;
    for (const w of this.work) {
      if (stop || w.step.put.kind !== 'delete' || failed.has(w.step.rel)) continue;
      try {
        if (remove(pins, w, options, touched, emptied)) report.removed.push(w.step.rel);
        this.wrote(w, 0);
      } catch (e) {
        stop = this.fail(w, e);
      }
    }
    if (!stop && options.prune) prune(pins, emptied);
    for (const w of this.work) {
      if (stop || w.step.put.kind === 'delete' || failed.has(w.step.rel)) continue;
      try {
        const bytes = place(pins, w, options, touched);
        report.written.push(w.step.rel);
        this.wrote(w, bytes);
      } catch (e) {
        stop = this.fail(w, e);
      }
    }
    return stop ? undefined : touched;
  }

  /** After a failure that stopped the transaction: one step changed nothing; several are put back. */
  stopped(): TxReport {
    return this.single ? this.abandonAfterFailure() : this.putBack();
  }

  /** The changed folders are durable: the journal is committed and removed (kept without backups for an intent). */
  finish(): TxReport {
    if (!this.single) this.journal.commit();
    if (this.options.intent !== undefined) this.journal.dropBackups();
    else this.journal.remove();
    return this.report;
  }

  /** One step that failed: its rename did not happen, so nothing changed — the temp and the journal go. */
  abandonAfterFailure(): TxReport {
    this.abandon();
    this.report.written = [];
    this.report.removed = [];
    return this.report;
  }

  /** Atomic mode after a failure: the rollback a recovery would run; the journal goes (kept backups stay). */
  putBack(): TxReport {
    for (const w of this.work) removeTemp(this.pins, w);
    const outcome = rollBack(this.plan as Plan, this.journal.dir);
    this.report.notRestored = outcome.kept.map((k) => k.rel);
    this.report.written = [];
    this.report.removed = [];
    settle(this.journal.journalDir, this.journal.dir, outcome);
    return this.report;
  }
}

/**
 * Run `steps` (see the module docstring), synchronously (the snapshot store's restore and revert). Never throws
 * for a failing file: failures are in the report (with `atomic`, the first failure stops and puts everything
 * back). Throws only when the journal cannot be written (an unwritable data folder): then nothing in the project
 * was changed.
 */
export function runTransaction(steps: readonly TxStep[], options: TxOptions): TxReport {
  if (steps.length === 0 && options.intent === undefined)
    return { written: [], removed: [], unchanged: [], failed: [], notRestored: [] };
  const tx = new Tx(steps, options);
  try {
    if (!tx.planAll()) return tx.report;
    for (const w of tx.early()) {
      try {
        stage(tx.pins, w, options);
      } catch (e) {
        if (tx.fail(w, e)) {
          tx.abandon();
          return tx.report;
        }
      }
    }
    const touched = tx.changeAll();
    if (!touched) return tx.stopped();
    syncFolders(tx.pins, touched);
    return tx.finish();
  } finally {
    tx.pins.close();
  }
}

/**
 * `runTransaction` for async callers (tools, review, seeding, the snapshot store): temp files that must be fsync'd
 * are written several at a time, so their fsyncs overlap.
 */
export async function runTransactionAsync(steps: readonly TxStep[], options: TxOptions): Promise<TxReport> {
  if (steps.length === 0 && options.intent === undefined)
    return { written: [], removed: [], unchanged: [], failed: [], notRestored: [] };
  const tx = new Tx(steps, options);
  try {
    if (!tx.planAll()) return tx.report;
    const queue = tx.early();
    let stop = false;
    const worker = async (): Promise<void> => {
      for (let w = queue.shift(); w && !stop; w = queue.shift()) {
        try {
          // Only a temp that must be fsync'd is worth a trip to the thread pool; the rest are written inline.
          if (options.sync === 'all' || w.st) tx.wrote(w, await stageAsync(tx.pins, w, options));
          else tx.wrote(w, stage(tx.pins, w, options));
        } catch (e) {
          if (tx.fail(w, e)) stop = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(STAGE_CONCURRENCY, queue.length) }, worker));
    if (stop) {
      tx.abandon();
      return tx.report;
    }
    const touched = tx.changeAll();
    if (!touched) return tx.stopped();
    await syncFoldersAsync(tx.pins, touched);
    return tx.finish();
  } finally {
    tx.pins.close();
  }
}
