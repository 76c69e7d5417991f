/**
 * `SnapshotWorker`: the SnapshotStore API with the work done in a worker thread (DESIGN §1: the UI's main
 * thread never blocks on a large track). Calls are queued to the worker in order; the store's own lock keeps
 * one operation at a time. Expected failures come back as LandfallFailure with the worker's error data.
 *
 * The worker script is this folder's `worker.ts` (run through tsx's loader in development and tests) or the built
 * `worker.js`; a bundler can pass its own script URL as `workerUrl`.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { LandfallFailure, type LandfallError } from '../../shared/errors';
import type { FileDiff } from '../../shared/model';
import type { TreeFile } from './git/tree-read';
import type { GcOptions, GcReport, PatchInfo, RestoreReport, SkippedFile, SnapshotOptions } from './types';

interface Reply {
  id?: number;
  ok?: boolean;
  value?: unknown;
  error?: LandfallError;
  skipped?: SkippedFile[];
  log?: string;
}

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

/** Same methods as SnapshotStore, each answered by the worker thread. */
export class SnapshotWorker {
  /** What the last track left out (updated with every reply). */
  lastSkipped: SkippedFile[] = [];
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply) => this.onReply(m));
    worker.on('error', (e) => this.failAll(e));
    worker.on('exit', (code) => this.failAll(new Error(`snapshot worker exited with code ${code}`)));
  }

  /** Starts a worker and opens the store there. `log` stays in this thread and receives skipped-file notices. */
  static async open(options: SnapshotOptions & { workerUrl?: URL }): Promise<SnapshotWorker> {
    const { log, workerUrl, ...data } = options;
    const url = workerUrl ?? defaultWorkerUrl();
    const w = new SnapshotWorker(
      url.pathname.endsWith('.ts') ? tsWorker(url, data) : new Worker(url, { workerData: data }),
    );
    w.log = log ?? ((line) => console.warn(line));
    try {
      await w.call('ready');
    } catch (e) {
      await w.worker.terminate(); // the store did not open: do not leave the thread behind
      throw e;
    }
    return w;
  }

  private log: (line: string) => void = () => undefined;

  private onReply(m: Reply): void {
    if (m.log !== undefined) {
      this.log(m.log);
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

  private failAll(e: unknown): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private call<T>(method: string, ...args: unknown[]): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, method, args });
    });
  }

  /** See SnapshotStore.track. */
  track(): Promise<string> {
    return this.call('track');
  }
  /** See SnapshotStore.patch. */
  patch(hash: string): Promise<PatchInfo> {
    return this.call('patch', hash);
  }
  /** See SnapshotStore.diff. */
  diff(hash: string): Promise<string> {
    return this.call('diff', hash);
  }
  /** See SnapshotStore.diffFull. */
  diffFull(from: string, to: string): Promise<FileDiff[]> {
    return this.call('diffFull', from, to);
  }
  /** See SnapshotStore.restore. */
  restore(hash: string): Promise<RestoreReport> {
    return this.call('restore', hash);
  }
  /** See SnapshotStore.revert. */
  revert(patches: PatchInfo[]): Promise<RestoreReport> {
    return this.call('revert', patches);
  }
  /** See SnapshotStore.notCaptured. */
  notCaptured(items: { path: string; tree: string }[]): Promise<string[]> {
    return this.call('notCaptured', items);
  }
  /** See SnapshotStore.listFiles. */
  listFiles(hash: string): Promise<TreeFile[]> {
    return this.call('listFiles', hash);
  }
  /** See SnapshotStore.readFile. */
  readFile(hash: string, path: string): Promise<Uint8Array | undefined> {
    return this.call('readFile', hash, path);
  }
  /** See SnapshotStore.gc. */
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
