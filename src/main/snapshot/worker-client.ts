/**
 * `SnapshotWorker`: the `Snapshots` calls (snapshots.ts) with the work done in a worker thread (DESIGN §1: the UI's
 * main thread never blocks on a large track). Calls are queued to the worker in order; the store's own lock keeps
 * one operation at a time. Expected failures come back as LandfallFailure with the worker's error data; the
 * messages are worker-protocol.ts. Each call's docstring is the interface's.
 *
 * Progress reports of the thread's long operations (progress.ts) go to `options.progress` in this thread. When
 * the thread dies (an error, `terminate`, an exit) every operation it had started and not ended is reported
 * `failed` (`unavailable`), so no progress is left running after the thread is gone.
 *
 * The worker script is this folder's `worker.ts` (run through tsx's loader in development and tests) or the built
 * `worker.js`; a bundler can pass its own script URL as `workerUrl`.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { LandfallFailure } from '../../shared/errors';
import type { FileDiff } from '../../shared/model';
import type { ChangedPath, TreeFile } from './git/tree-read';
import type { SnapshotCall, Snapshots } from './snapshots';
import type {
  GcOptions,
  GcReport,
  PatchInfo,
  RestoreReport,
  SkippedFile,
  SnapshotOptions,
  TrackOptions,
} from './types';
import type { Reply, Request } from './worker-protocol';
import type { ProgressSink, SnapshotProgress } from './progress';

function defaultWorkerUrl(): URL {
  const js = new URL('./worker.js', import.meta.url);
  return existsSync(fileURLToPath(js)) ? js : new URL('./worker.ts', import.meta.url);
}

/** Starts a TypeScript worker script through tsx's loader (development and tests, where sources are not built). */
function tsWorker(url: URL, workerData: unknown): Worker {
  // require.resolve gives the CommonJS build; the worker imports the ESM build beside it.
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Starts the snapshot thread for `options` (the store opens there; `log` is not sent, it stays with the caller).
 * `SnapshotWorker.open` speaks the protocol of worker-protocol.ts to it; a test may post raw requests to check
 * that the thread answers only the calls on the allow-list.
 */
export function startSnapshotThread(options: SnapshotOptions & { workerUrl?: URL }): Worker {
  const { log: _log, progress: _progress, workerUrl, ...data } = options;
  const url = workerUrl ?? defaultWorkerUrl();
  return url.pathname.endsWith('.ts') ? tsWorker(url, data) : new Worker(url, { workerData: data });
}

/** A pending call's settle functions; the value is what the thread answered for that call. */
interface Pending {
  resolve: (value: unknown) => void;
  reject: (e: unknown) => void;
}

/** `Snapshots` with every call answered by the worker thread. */
export class SnapshotWorker implements Snapshots {
  /** What the last track left out (updated with every reply). */
  lastSkipped: SkippedFile[] = [];
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private log: (line: string) => void = () => undefined;
  private progress: ProgressSink | undefined;
  /** The thread's operations that started and have not ended: their last report, by run. */
  private readonly runs = new Map<number, SnapshotProgress>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply) => this.onReply(m));
    worker.on('error', (e) => this.failAll(e));
    worker.on('exit', (code) => this.failAll(new Error(`snapshot worker exited with code ${code}`)));
  }

  /** Starts a worker and opens the store there. `log` stays in this thread and receives skipped-file notices. */
  static async open(options: SnapshotOptions & { workerUrl?: URL }): Promise<SnapshotWorker> {
    const w = new SnapshotWorker(startSnapshotThread(options));
    w.log = options.log ?? ((line) => console.warn(line));
    w.progress = options.progress;
    try {
      await w.send('ready', []);
    } catch (e) {
      await w.worker.terminate(); // the store did not open: do not leave the thread behind
      throw e;
    }
    return w;
  }

  private onReply(m: Reply): void {
    if (m.log !== undefined) {
      this.log(m.log);
      return;
    }
    if (m.progress !== undefined) {
      this.onProgress(m.progress);
      return;
    }
    const p = m.id === undefined ? undefined : this.pending.get(m.id);
    if (!p || m.id === undefined) return;
    this.pending.delete(m.id);
    if (m.skipped) this.lastSkipped = m.skipped;
    if (m.ok) p.resolve(m.value);
    else
      p.reject(
        new LandfallFailure(
          m.error ?? { code: 'internal', message: 'snapshot worker failed', hint: 'report this as a bug' },
        ),
      );
  }

  private onProgress(report: SnapshotProgress): void {
    if (report.state === 'end' || report.state === 'failed') this.runs.delete(report.run);
    else this.runs.set(report.run, report);
    this.tell(report);
  }

  private tell(report: SnapshotProgress): void {
    try {
      this.progress?.(report);
    } catch {
      // a listener's failure must not break the client
    }
  }

  private failAll(e: unknown): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    // The thread is gone: what it was doing will never report its end.
    for (const last of this.runs.values())
      this.tell({
        ...last,
        state: 'failed',
        error: { code: 'unavailable', message: 'the snapshot worker stopped before the operation ended' },
      });
    this.runs.clear();
  }

  private send(method: Request['method'], args: unknown[]): Promise<unknown> {
    const id = this.next++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, args } satisfies Request);
    });
  }

  /**
   * Call `method` with `args` typed by the interface. The thread ran the store's own implementation of the same
   * call, so its answer has that call's result type (structured clone keeps plain data as it is).
   */
  private async call<K extends SnapshotCall>(
    method: K,
    ...args: Parameters<Snapshots[K]>
  ): Promise<Awaited<ReturnType<Snapshots[K]>>> {
    return (await this.send(method, args)) as Awaited<ReturnType<Snapshots[K]>>;
  }

  /** Snapshots.track, answered by the thread. */
  track(options?: TrackOptions): Promise<string> {
    return options ? this.call('track', options) : this.call('track');
  }
  /** Snapshots.patch, answered by the thread. */
  patch(hash: string): Promise<PatchInfo> {
    return this.call('patch', hash);
  }
  /** Snapshots.diff, answered by the thread. */
  diff(hash: string): Promise<string> {
    return this.call('diff', hash);
  }
  /** Snapshots.diffFull, answered by the thread. */
  diffFull(from: string, to: string): Promise<FileDiff[]> {
    return this.call('diffFull', from, to);
  }
  /** Snapshots.changed, answered by the thread. */
  changed(from: string, to: string): Promise<ChangedPath[]> {
    return this.call('changed', from, to);
  }
  /** Snapshots.restore, answered by the thread. */
  restore(hash: string): Promise<RestoreReport> {
    return this.call('restore', hash);
  }
  /** Snapshots.revert, answered by the thread. */
  revert(patches: PatchInfo[], options?: { intent?: string }): Promise<RestoreReport> {
    return options ? this.call('revert', patches, options) : this.call('revert', patches);
  }
  /** Snapshots.notCaptured, answered by the thread. */
  notCaptured(items: { path: string; tree: string }[]): Promise<string[]> {
    return this.call('notCaptured', items);
  }
  /** Snapshots.listFiles, answered by the thread. */
  listFiles(hash: string): Promise<TreeFile[]> {
    return this.call('listFiles', hash);
  }
  /** Snapshots.readFile, answered by the thread. */
  readFile(hash: string, path: string): Promise<Uint8Array | undefined> {
    return this.call('readFile', hash, path);
  }
  /** Snapshots.gc, answered by the thread. */
  gc(options: GcOptions): Promise<GcReport> {
    return this.call('gc', options);
  }
  /** Closes the store and ends the worker thread. */
  async close(): Promise<void> {
    await this.call('close');
    await this.worker.terminate();
  }
}

/** Opens `SnapshotWorker` for `options` (same options as SnapshotStore.open, plus an optional `workerUrl`). */
export function openInWorker(options: SnapshotOptions & { workerUrl?: URL }): Promise<SnapshotWorker> {
  return SnapshotWorker.open(options);
}
