/**
 * Parallel lstat for the track walk (the idea of git's preload-index): on a large tree ~80% of a no-change track
 * is one lstat per file, a syscall that a second core can run concurrently. A helper thread is given the files of
 * the last track (in walk order) and lstats them from the END backwards into a SharedArrayBuffer, while the walk
 * goes forward from the start; where they meet, both stop. The walk claims each index before it lstats the file
 * itself, so the helper stops at the first index the walk already took.
 *
 * Safety: a prefetched stat is an lstat taken during this track, just like the walk's own, so using it changes
 * nothing about what a track can see (a track was never atomic). It only serves the stat-cache comparison: a file
 * that is missing, a folder, or does not match its cache entry gets the walk's usual lstat and read. The shared
 * buffer is reused by the next job only once the helper has marked the last job on it finished (a control word), so
 * no late write of one job can land in the next; the helper also stops as soon as the buffer names another job.
 * The helper is plain JavaScript run with `eval` (no loader needed in tests, tsx or a bundled app), unref'd so it
 * never keeps a process alive, and only started for trees of at least PREFETCH_MIN files (small trees gain less
 * than a thread start costs). One helper serves every store of a thread (`sharedPrefetcher`): tracks are
 * synchronous, so jobs never overlap, and a store reopened in the same process finds it booted (a boot takes
 * ~25 ms). If it dies, its counters simply stop moving and the walk lstats everything itself.
 */
import { Worker } from 'node:worker_threads';

/** Files in the last track below which no helper thread is started. */
export const PREFETCH_MIN = 4000;

/** Compressed stat cache size (bytes, ~45 per file) from which a reopened store warms the helper up front. */
export const PREFETCH_WARM_BYTES = PREFETCH_MIN * 30;

/** Numbers per file in the shared array: size, mtimeMs, ctimeMs, ino, mode (NaN size: lstat failed). */
const COLS = 5;

// Control words (Int32 at the start of the shared buffer): [0] = first index the walk has claimed up to
// (exclusive), [1] = files done from the end, [2] = the job running, [3] = the last job the helper finished.
const CTL_WORDS = 4;
const NUMS_AT = CTL_WORDS * 4;
const HELPER = `
const { parentPort } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const held = { root: '', paths: [], sab: undefined };
parentPort.on('message', (job) => {
  if (job.paths) { held.root = job.root; held.paths = job.paths; }
  if (job.sab) held.sab = job.sab;
  const { root, paths, sab } = held;
  const ctl = new Int32Array(sab, 0, ${CTL_WORDS});
  const nums = new Float64Array(sab, ${NUMS_AT});
  for (let i = paths.length - 1; i >= 0; i--) {
    if (Atomics.load(ctl, 0) > i || Atomics.load(ctl, 2) !== job.id) break;
    let s;
    try { s = lstatSync(root + '/' + paths[i], { throwIfNoEntry: false }); } catch { s = undefined; }
    const k = i * ${COLS};
    if (s) { nums[k] = s.size; nums[k + 1] = s.mtimeMs; nums[k + 2] = s.ctimeMs; nums[k + 3] = s.ino; nums[k + 4] = s.mode; }
    else nums[k] = NaN;
    Atomics.store(ctl, 1, paths.length - i);
  }
  Atomics.store(ctl, 3, job.id);
});
`;

/** lstat numbers of one file, as fs.Stats has them. */
export interface StatNumbers {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** One track's prefetch: `paths` (worktree-relative, walk order) being lstat'ed from the end by the helper. */
export class Prefetch {
  private readonly ctl: Int32Array;
  private readonly nums: Float64Array;
  /** Index in `paths` the walk expects next (walk order mostly repeats the last track's). */
  private next = 0;

  constructor(
    private readonly paths: string[],
    sab: SharedArrayBuffer,
  ) {
    this.ctl = new Int32Array(sab, 0, CTL_WORDS);
    this.nums = new Float64Array(sab, NUMS_AT);
  }

  /**
   * The helper's lstat of `path` (worktree-relative) if it already has one, else undefined — then the index is
   * claimed so the helper stops before it and the caller lstats the file itself.
   */
  take(path: string): StatNumbers | undefined {
    const i = this.indexOf(path);
    if (i < 0) return undefined;
    const n = this.paths.length;
    if (n - Atomics.load(this.ctl, 1) <= i) {
      const k = i * COLS;
      const size = this.nums[k] as number;
      if (Number.isNaN(size)) return undefined;
      return {
        size,
        mtimeMs: this.nums[k + 1] as number,
        ctimeMs: this.nums[k + 2] as number,
        ino: this.nums[k + 3] as number,
        mode: this.nums[k + 4] as number,
      };
    }
    Atomics.store(this.ctl, 0, i + 1);
    return undefined;
  }

  /** Position of `path`: the expected next one, or a few further on (files deleted since); -1 when not found. */
  private indexOf(path: string): number {
    for (let i = this.next; i < this.next + 4 && i < this.paths.length; i++) {
      if (this.paths[i] === path) {
        this.next = i + 1;
        return i;
      }
    }
    return -1;
  }

  /** Files the helper has lstat'ed so far (counted from the end). */
  done(): number {
    return Atomics.load(this.ctl, 1);
  }

  /** Stops the helper on this job (call when the walk ends). */
  end(): void {
    Atomics.store(this.ctl, 0, this.paths.length);
  }
}

/** The helper thread of one store; started on the first large track, stopped by `close`. */
export class StatPrefetcher {
  private worker: Worker | undefined;
  private dead = false;
  /** The root and path list the helper holds (sent with an earlier job): a job with the same ones sends none. */
  private sent: { root: string; paths: string[] } | undefined;
  /** The shared buffer the helper holds, and the number of the last job started on it. */
  private shared: { sab: SharedArrayBuffer; job: number } | undefined;

  /**
   * Starts lstat'ing the keys of `files` (paths relative to `root`, in walk order); undefined when too few or
   * unavailable. What the helper already holds is not sent again: the path list when it is the last job's (the
   * same key strings, compared one reference at a time), the shared buffer when it is large enough and the helper
   * has finished the last job on it. A new list of 100,000 paths and a new 4 MB buffer on every track were most of
   * what a no-change track allocated.
   */
  start(root: string, files: ReadonlyMap<string, unknown>): Prefetch | undefined {
    if (files.size < PREFETCH_MIN || !this.warm() || !this.worker) return undefined;
    const last = this.sent;
    const same = last !== undefined && last.root === root && sameKeys(last.paths, files);
    const paths = same ? last.paths : [...files.keys()];
    const need = NUMS_AT + paths.length * COLS * 8;
    const held = this.shared;
    const reuse =
      held !== undefined &&
      held.sab.byteLength >= need &&
      Atomics.load(new Int32Array(held.sab, 0, CTL_WORDS), 3) === held.job;
    // A new buffer has room for a quarter more files, so a growing tree does not need one on every track.
    const sab = reuse ? held.sab : new SharedArrayBuffer(NUMS_AT + Math.ceil(paths.length * 1.25) * COLS * 8);
    const id = (held?.job ?? 0) + 1;
    const ctl = new Int32Array(sab, 0, CTL_WORDS);
    Atomics.store(ctl, 0, 0);
    Atomics.store(ctl, 1, 0);
    Atomics.store(ctl, 2, id);
    this.worker.postMessage({ id, ...(same ? {} : { root, paths }), ...(reuse ? {} : { sab }) });
    this.sent = { root, paths };
    this.shared = { sab, job: id };
    return new Prefetch(paths, sab);
  }

  /**
   * Starts the helper thread now (it takes tens of ms to boot: a store reopened on a large tree calls this before
   * loading its stat cache, so the boot overlaps the load). False when no thread can run.
   */
  warm(): boolean {
    if (this.dead) return false;
    if (this.worker) return true;
    this.sent = undefined; // a new helper holds no list and no buffer
    this.shared = undefined;
    try {
      this.worker = new Worker(HELPER, { eval: true });
    } catch {
      this.dead = true;
      return false;
    }
    this.worker.unref();
    this.worker.on('error', () => {
      this.dead = true;
    });
    return true;
  }

  /** Terminates the helper thread. */
  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.sent = undefined;
    this.shared = undefined;
  }
}

/** True when `files` has exactly the keys `paths`, in that order (the same strings: reference checks mostly). */
function sameKeys(paths: string[], files: ReadonlyMap<string, unknown>): boolean {
  if (paths.length !== files.size) return false;
  let i = 0;
  for (const k of files.keys()) if (paths[i++] !== k) return false;
  return true;
}

/** The helper shared by every SnapshotStore of this thread; it lives as long as the thread (unref'd). */
export const sharedPrefetcher = new StatPrefetcher();
