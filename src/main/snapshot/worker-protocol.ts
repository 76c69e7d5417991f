/**
 * The messages between `SnapshotWorker` (worker-client.ts) and its thread (worker.ts). The client sends
 * `{ id, method, args }` — `method` a call of `Snapshots` (snapshots.ts) or `ready` (answered once the store is
 * open); the thread answers `{ id, ok: true, value, skipped }` or `{ id, ok: false, error }`, and forwards the
 * store's log lines as `{ log }` and its progress reports (progress.ts) as `{ progress }`. `dispatch` is the thread's side: it runs only names on the allow-list.
 */
import { LandfallFailure, type LandfallError } from '../../shared/errors';
import { isSnapshotCall, SNAPSHOT_CALLS, type SnapshotCall, type Snapshots } from './snapshots';
import type { SkippedFile } from './types';
import type { SnapshotProgress } from './progress';

/** A call to the thread. `ready` resolves once the store opened (or rejects with why it did not). */
export interface Request {
  id: number;
  method: SnapshotCall | 'ready';
  args: unknown[];
}

/**
 * An answer (`id` set), a log line (`log` set) or a progress report (`progress` set). `skipped`: what the store's
 * last track left out.
 */
export interface Reply {
  id?: number;
  ok?: boolean;
  value?: unknown;
  error?: LandfallError;
  skipped?: SkippedFile[];
  log?: string;
  progress?: SnapshotProgress;
}

/** A method name as an error shows it: a string as it is, anything else as `(its type)` (never converted). */
export function shownName(method: unknown): string {
  if (typeof method === 'string') return method;
  return method === null ? '(null)' : `(${typeof method})`;
}

/**
 * Runs `request` (as received: its shape is not trusted) against `store`. `ready` answers undefined; a call of
 * `Snapshots` runs that call with the request's arguments; any other method — a private method of the store,
 * `constructor`, a prototype name, a property, a non-string — rejects with LandfallFailure `unknown_call`
 * (data.method: the name asked for, see shownName) and touches nothing.
 */
export async function dispatch(store: Snapshots, request: { method?: unknown; args?: unknown }): Promise<unknown> {
  const { method } = request;
  if (method === 'ready') return undefined;
  if (!isSnapshotCall(method)) {
    const name = shownName(method);
    throw new LandfallFailure({
      code: 'unknown_call',
      message: `the snapshot worker has no call ${JSON.stringify(name)}`,
      hint: `call one of ${Object.keys(SNAPSHOT_CALLS).join(', ')}`,
      data: { method: name },
    });
  }
  const args = Array.isArray(request.args) ? request.args : [];
  // `store[method]` is a member of the interface (the allow-list holds only those); its arguments are what the
  // typed client sent, and the store checks them itself (a malformed hash is `invalid_input`).
  return Reflect.apply(store[method], store, args);
}
