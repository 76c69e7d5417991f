/**
 * ProgressHub: every long operation's progress as `progress` events of the one contract (src/shared/progress-
 * schemas.ts), from two sources —
 *   - the snapshot stores (snapshot/progress.ts: first track and full walks, restore, revert, gc), whose reports
 *     arrive already throttled, from the worker thread or the calling thread, and are tagged here with the
 *     project and an id unique in this process;
 *   - operations of the service and the host that span several store calls or none: a history move of a session
 *     (`around`: the move is one operation, and while it runs the reports of its project's store become its
 *     phases — the walk before it, the files it writes), a session import (`begin`).
 * The hub's own operations report `start` and every phase change at once and counts at most every
 * PROGRESS_THROTTLE_MS (a trailing report is sent when the counts stood still). Every operation ends with exactly
 * one `end` or `failed`; `around` also on a thrown error. While operations run, a report that stays silent for
 * HEARTBEAT_MS is repeated with its elapsed time brought up to date, so a window decides "long enough to show"
 * from main's report even while a phase has nothing to count. `active()` answers what runs now (`progress.list`:
 * a reloaded window starts from it, so no bar is left from before a reload).
 *
 * Known limit: two history moves of one project at once (two sessions) — the store's reports go to the first.
 */
import type { Result } from '../../shared/errors';
import {
  PROGRESS_THROTTLE_MS,
  type ProgressBytes,
  type ProgressCount,
  type ProgressEvent,
  type ProgressOperation,
  type ProgressPhase,
} from '../../shared/progress-schemas';
import type { SnapshotProgress } from '../snapshot/progress';

/** A silent operation's report is repeated after this many ms (its elapsed time brought up to date). */
export const HEARTBEAT_MS = 250;

/** Which project (and session) an operation concerns. */
export interface ProgressScope {
  projectId?: string;
  sessionId?: string;
}

/** One operation the hub runs: its phases, its counts, its end. Calls after the end are ignored. */
export interface ProgressRun {
  readonly id: string;
  /** Enters `phase` (reported at once) with its counts so far. */
  phase(phase: ProgressPhase, count?: ProgressCount, bytes?: ProgressBytes): void;
  /** New counts in the current phase (reported at most every PROGRESS_THROTTLE_MS). */
  update(count?: ProgressCount, bytes?: ProgressBytes): void;
  /** The operation finished. */
  end(): void;
  /** The operation failed (`code` of src/shared/errors.ts or `internal`, plain words). */
  fail(error: { code: string; message: string }): void;
}

interface Live {
  event: ProgressEvent;
  /** Main's clock when `event.elapsedMs` was true (a store's report: when it arrived; the hub's own: its start). */
  base: number;
  /** For the hub's own operations: main's clock at the start (their elapsed time is main's). */
  started: number | undefined;
  lastEmit: number;
  pending: boolean;
}

/** The hub of one service (see the module docstring). */
export class ProgressHub {
  private readonly live = new Map<string, Live>();
  /** A store's run (`<projectId>\0<run>`) → the id it is reported under. */
  private readonly storeRuns = new Map<string, string>();
  /** Project → the history move whose phases its store's reports are while it runs. */
  private readonly holders = new Map<string, Live>();
  private next = 1;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly emit: (e: ProgressEvent) => void,
    /** Milliseconds on a monotonic clock (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts an operation of the hub's own (reported `start` at once); end it with `end` or `fail`. */
  begin(operation: ProgressOperation, scope: ProgressScope = {}): ProgressRun {
    const at = this.now();
    const live: Live = {
      event: {
        type: 'progress',
        id: `prg_${this.next++}`,
        operation,
        ...(scope.projectId !== undefined ? { projectId: scope.projectId } : {}),
        ...(scope.sessionId !== undefined ? { sessionId: scope.sessionId } : {}),
        state: 'start',
        elapsedMs: 0,
      },
      base: at,
      started: at,
      lastEmit: 0,
      pending: false,
    };
    this.live.set(live.event.id, live);
    this.send(live);
    this.tick();
    return this.handle(live);
  }

  /**
   * Runs `fn` as one operation of `scope.projectId` (a history move): while it runs, that project's store reports
   * are its phases. Ends `end` for an ok result, `failed` with the error for a refused one or a thrown error
   * (rethrown).
   */
  async around<T>(
    operation: ProgressOperation,
    scope: ProgressScope,
    fn: (run: ProgressRun) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    const run = this.begin(operation, scope);
    const live = this.live.get(run.id) as Live;
    const project = scope.projectId;
    const holds = project !== undefined && !this.holders.has(project);
    if (holds) this.holders.set(project, live);
    try {
      const r = await fn(run);
      if (r.ok) run.end();
      else run.fail({ code: r.error.code, message: r.error.message });
      return r;
    } catch (e) {
      run.fail({ code: 'internal', message: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      if (holds && this.holders.get(project) === live) this.holders.delete(project);
    }
  }

  /** A report of `projectId`'s snapshot store (SnapshotOptions.progress). */
  storeReport(projectId: string, report: SnapshotProgress): void {
    const holder = this.holders.get(projectId);
    if (holder && this.live.get(holder.event.id) === holder) return this.fold(holder, report);
    const key = `${projectId}\0${report.run}`;
    let id = this.storeRuns.get(key);
    if (id === undefined) {
      if (report.state === 'end' || report.state === 'failed') return; // its start was never seen here
      id = `prg_${this.next++}`;
      this.storeRuns.set(key, id);
    }
    const { run: _run, ...rest } = report;
    const event: ProgressEvent = { type: 'progress', ...rest, id, projectId };
    const at = this.now();
    if (report.state === 'end' || report.state === 'failed') {
      this.storeRuns.delete(key);
      this.live.delete(id);
      this.emit(event);
      return;
    }
    this.live.set(id, { event, base: at, started: undefined, lastEmit: at, pending: false });
    this.emit(event);
    this.tick();
  }

  /** The operations running now, each as its latest report with its elapsed time brought up to date. */
  active(): ProgressEvent[] {
    const at = this.now();
    return [...this.live.values()].map((l) => ({ ...l.event, elapsedMs: this.elapsed(l, at) }));
  }

  /**
   * A store report while a history move holds its project: its phase and counts become the move's (a store run's
   * `end` too, so the phase's final counts are kept; its `failed` is the move's to tell, by its result).
   */
  private fold(holder: Live, report: SnapshotProgress): void {
    if (report.state === 'failed' || !report.phase) return;
    const run = this.handle(holder);
    if (report.phase !== holder.event.phase) run.phase(report.phase, report.count, report.bytes);
    else run.update(report.count, report.bytes);
  }

  private handle(live: Live): ProgressRun {
    const open = (): boolean => this.live.get(live.event.id) === live;
    const set = (count?: ProgressCount, bytes?: ProgressBytes): void => {
      const { count: _c, bytes: _b, ...rest } = live.event;
      live.event = { ...rest, ...(count ? { count } : {}), ...(bytes ? { bytes } : {}), state: 'running' };
    };
    return {
      id: live.event.id,
      phase: (phase, count, bytes) => {
        if (!open()) return;
        if (live.pending) this.send(live); // the last phase's final counts are told before the next phase
        set(count, bytes);
        live.event = { ...live.event, phase };
        this.send(live);
      },
      update: (count, bytes) => {
        if (!open()) return;
        set(count, bytes);
        if (this.now() - live.lastEmit >= PROGRESS_THROTTLE_MS) this.send(live);
        else live.pending = true;
      },
      end: () => this.finish(live, 'end'),
      fail: (error) => this.finish(live, 'failed', error),
    };
  }

  private finish(live: Live, state: 'end' | 'failed', error?: { code: string; message: string }): void {
    if (this.live.get(live.event.id) !== live) return;
    this.live.delete(live.event.id);
    live.event = { ...live.event, state, ...(error ? { error } : {}) };
    this.send(live);
    if (this.live.size === 0) this.stopTimer();
  }

  private elapsed(l: Live, at: number): number {
    return l.started !== undefined ? Math.max(0, at - l.started) : l.event.elapsedMs + Math.max(0, at - l.base);
  }

  /** Emits `live`'s event now, its elapsed time as of now. */
  private send(live: Live): void {
    const at = this.now();
    live.event = { ...live.event, elapsedMs: this.elapsed(live, at) };
    if (live.started === undefined) live.base = at;
    live.lastEmit = at;
    live.pending = false;
    try {
      this.emit(live.event);
    } catch {
      // a listener's failure must not break the operation
    }
  }

  /** Runs the trailing reports and the heartbeat while operations run (an unref'd timer: never keeps Node up). */
  private tick(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const at = this.now();
      for (const l of this.live.values()) {
        const quiet = at - l.lastEmit;
        if ((l.pending && quiet >= PROGRESS_THROTTLE_MS) || quiet >= HEARTBEAT_MS) {
          if (l.event.state === 'start') l.event = { ...l.event, state: 'running' };
          this.send(l);
        }
      }
      if (this.live.size === 0) this.stopTimer();
    }, PROGRESS_THROTTLE_MS);
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops the timer (the service closes); operations still running are reported `failed`. */
  close(): void {
    for (const l of [...this.live.values()])
      this.finish(l, 'failed', { code: 'unavailable', message: 'Landfall closed before the operation ended' });
    this.storeRuns.clear();
    this.holders.clear();
    this.stopTimer();
  }
}
