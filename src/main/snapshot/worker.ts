/**
 * Worker-thread side of `SnapshotWorker`: owns one SnapshotStore and answers `{ id, method, args }` messages
 * with `{ id, ok: true, value, skipped }` or `{ id, ok: false, error }` (a LandfallError when expected, else
 * `{ code: 'internal', message }`). Log lines are forwarded as `{ log }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFailure } from '../../shared/errors';
import { SnapshotStore } from './store';
import type { SnapshotOptions } from './types';

interface Call {
  id: number;
  method: string;
  args: unknown[];
}

const port = parentPort;
if (!port) throw new Error('snapshot worker must run in a worker thread');
const options = workerData as SnapshotOptions;
const ready = SnapshotStore.open({ ...options, log: (line) => port.postMessage({ log: line }) });
// The failure is reported to every call (each awaits `ready`); without this it would also kill the thread.
ready.catch(() => undefined);

port.on('message', (call: Call) => {
  void (async () => {
    try {
      const store = await ready;
      if (call.method === 'ready') {
        port.postMessage({ id: call.id, ok: true, value: undefined, skipped: [] });
        return;
      }
      const fn = (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[call.method];
      if (typeof fn !== 'function') throw new Error(`unknown snapshot method ${call.method}`);
      const value = await fn.apply(store, call.args);
      port.postMessage({ id: call.id, ok: true, value, skipped: store.lastSkipped });
      if (call.method === 'close') port.close();
    } catch (e) {
      const error = isFailure(e)
        ? e.error
        : { code: 'internal', message: e instanceof Error ? e.message : String(e), hint: 'report this as a bug' };
      port.postMessage({ id: call.id, ok: false, error });
    }
  })();
});
