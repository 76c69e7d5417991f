/**
 * Worker-thread side of `SnapshotWorker`: owns one SnapshotStore and answers the requests of worker-protocol.ts
 * — only the calls of `Snapshots` (its allow-list; any other name is `unknown_call`). An unexpected error comes
 * back as `{ code: 'internal', message }`. Log lines are forwarded as `{ log }`, progress reports of long
 * operations (progress.ts: throttled at the source, so never one message per file) as `{ progress }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFailure } from '../../shared/errors';
import { SnapshotStore } from './store';
import type { SnapshotOptions } from './types';
import { dispatch, type Reply, type Request } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('snapshot worker must run in a worker thread');
const options = workerData as SnapshotOptions;
const ready = SnapshotStore.open({
  ...options,
  log: (line) => port.postMessage({ log: line } satisfies Reply),
  progress: (report) => port.postMessage({ progress: report } satisfies Reply),
});
// The failure is reported to every call (each awaits `ready`); without this it would also kill the thread.
ready.catch(() => undefined);
// A watched store takes its first (full) track as soon as it opens, so a big project's first walk overlaps the
// user's first message instead of delaying the first step; calls that arrive meanwhile queue behind it.
if (options.watch)
  void ready
    .then((store) => store.track())
    .catch((e: unknown) => port.postMessage({ log: `snapshot: first track failed: ${String(e)}` } satisfies Reply));

port.on('message', (request: Partial<Request>) => {
  void (async () => {
    const id = request.id;
    try {
      const store = await ready;
      const value = await dispatch(store, request);
      port.postMessage({ id, ok: true, value, skipped: store.lastSkipped } satisfies Reply);
      if (request.method === 'close') port.close();
    } catch (e) {
      const error = isFailure(e)
        ? e.error
        : {
            code: 'internal' as const,
            message: e instanceof Error ? e.message : String(e),
            hint: 'report this as a bug',
          };
      port.postMessage({ id, ok: false, error } satisfies Reply);
    }
  })();
});
