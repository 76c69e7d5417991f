/**
 * Progress of the snapshot store's long operations (issue 18 §2; the event shape is src/shared/progress-schemas.ts):
 * a first track or any full walk, a restore, a revert, gc. The store runs each under `ProgressMeter.run`; the code
 * doing the work says which phase it is in (`phase`) and counts what it did (`tick`: files or objects, bytes).
 *
 * Rules: nothing is reported for an operation that never enters a phase (a track the watcher guides, which looks at
 * a handful of paths); a run that entered one reports `start` at once, `running` at most every
 * PROGRESS_THROTTLE_MS (checked on ticks, and the clock is read only every 16th tick without bytes, so a walk of
 * 100,000 cached files pays for a few thousand clock reads, not one per file), each later phase at once, and exactly
 * one `end` or `failed` (the operation threw) — never one report per file. The `end` report carries the last
 * phase's totals: a phase that had none (a walk discovering files) gets what it counted. A run inside a run (the
 * walk a restore makes) belongs to the outer one: its phases are the outer run's. Works the same in the calling
 * thread and in the snapshot worker, whose sink posts the reports to the main thread (worker.ts).
 */
import { isFailure } from '../../shared/errors';
import type { TxProgress } from '../fs/tx-types';
import {
  PROGRESS_THROTTLE_MS,
  type ProgressCount,
  type ProgressEvent,
  type ProgressOperation,
  type ProgressPhase,
} from '../../shared/progress-schemas';

/** The operations the store reports. */
export type SnapshotOperation = Extract<ProgressOperation, 'first-track' | 'track' | 'restore' | 'revert' | 'gc'>;

/**
 * One report of a store operation: a `progress` event without what only main knows (its id, the project, the
 * session). `run` numbers the store's operations (the same on every report of one run).
 */
export type SnapshotProgress = Omit<ProgressEvent, 'type' | 'id' | 'projectId' | 'sessionId' | 'operation'> & {
  run: number;
  operation: SnapshotOperation;
};

/** Where a store's reports go (SnapshotOptions.progress). Called synchronously from inside the operation. */
export type ProgressSink = (report: SnapshotProgress) => void;

/** What walk.ts, gc.ts and the transaction's adapter need of the meter. */
export interface ProgressTicker {
  /** `items` more done (files, objects) and `bytes` more read or written in the current phase. */
  tick(items: number, bytes: number): void;
}

interface Run {
  id: number;
  operation: SnapshotOperation;
  started: number;
  announced: boolean;
  lastEmit: number;
  ticks: number;
  phase: ProgressPhase | undefined;
  count: ProgressCount;
  bytes: { done: number; total?: number };
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

function errorOf(e: unknown): { code: string; message: string } {
  if (isFailure(e)) return { code: e.error.code, message: e.error.message };
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** The meter of one store (see the module docstring). Without a sink every call is a no-op. */
export class ProgressMeter implements ProgressTicker {
  private current: Run | undefined;
  private runs = 0;

  constructor(
    private readonly sink: ProgressSink | undefined,
    /** Milliseconds on a monotonic clock (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Runs `fn` as one `operation` (its result as it is; a promise's settling ends the run). Inside another run,
   * `fn` simply runs as part of it. Rethrows what `fn` throws, after reporting `failed` if the run was announced.
   */
  run<T>(operation: SnapshotOperation, fn: () => T): T {
    if (this.current || !this.sink) return fn();
    const r: Run = {
      id: ++this.runs,
      operation,
      started: this.now(),
      announced: false,
      lastEmit: 0,
      ticks: 0,
      phase: undefined,
      count: { done: 0, unit: 'files' },
      bytes: { done: 0 },
    };
    this.current = r;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      this.finish(r, e);
      throw e;
    }
    if (!isThenable(result)) {
      this.finish(r);
      return result;
    }
    return result.then(
      (v) => {
        this.finish(r);
        return v;
      },
      (e: unknown) => {
        this.finish(r, e);
        throw e;
      },
    ) as T;
  }

  /** The phase of the running operation, or undefined (no run, or none entered yet). */
  get phaseNow(): ProgressPhase | undefined {
    return this.current?.phase;
  }

  /**
   * Enters `phase` of the running operation (no-op outside a run): its counts start at 0 of `total` (items in
   * `unit`, bytes) when known. The first phase announces the run (`start`); every phase is reported at once.
   */
  phase(
    phase: ProgressPhase,
    unit: ProgressCount['unit'] = 'files',
    total: { items?: number; bytes?: number } = {},
  ): void {
    const r = this.current;
    if (!r) return;
    r.phase = phase;
    r.count = total.items === undefined ? { done: 0, unit } : { done: 0, total: total.items, unit };
    r.bytes = total.bytes === undefined ? { done: 0 } : { done: 0, total: total.bytes };
    this.emit(r, r.announced ? 'running' : 'start');
    r.announced = true;
  }

  /** Counts work done in the current phase; reports `running` when the last report is PROGRESS_THROTTLE_MS old. */
  tick(items: number, bytes: number): void {
    const r = this.current;
    if (!r?.announced) return;
    r.count.done += items;
    r.bytes.done += bytes;
    if ((++r.ticks & 15) !== 0 && bytes === 0) return;
    if (this.now() - r.lastEmit >= PROGRESS_THROTTLE_MS) this.emit(r, 'running');
  }

  private emit(r: Run, state: SnapshotProgress['state'], error?: { code: string; message: string }): void {
    const at = this.now();
    r.lastEmit = at;
    const report: SnapshotProgress = {
      run: r.id,
      operation: r.operation,
      state,
      ...(r.phase ? { phase: r.phase } : {}),
      count: { ...r.count },
      bytes: { ...r.bytes },
      elapsedMs: Math.max(0, at - r.started),
      ...(error ? { error } : {}),
    };
    try {
      this.sink?.(report);
    } catch {
      // a listener's failure must never fail the operation it watches
    }
  }

  private finish(r: Run, e?: unknown): void {
    if (this.current === r) this.current = undefined;
    if (!r.announced) return;
    if (e === undefined) {
      // Once done, the totals are known: what was counted (a walk had none; a phase that skipped nothing is equal).
      if (r.count.total === undefined) r.count.total = r.count.done;
      if (r.bytes.total === undefined) r.bytes.total = r.bytes.done;
      this.emit(r, 'end');
    } else this.emit(r, 'failed', errorOf(e));
  }
}

/**
 * The transaction's progress callback (fs/tx-types.ts `TxProgress`) as phases and ticks of `meter`: each phase
 * (`prepare`, `write`) is entered with its number of steps as the total, and each step done counts one file and
 * the bytes it wrote.
 */
export function transactionProgress(meter: ProgressMeter): TxProgress {
  return (phase, total, bytes) => {
    if (meter.phaseNow !== phase) meter.phase(phase, 'files', { items: total });
    meter.tick(1, bytes);
  };
}
