/**
 * The snapshot worker thread answers only the calls of `Snapshots` (its allow-list, snapshots.ts): raw requests
 * naming the store's private methods, its fields, prototype names, odd spellings and non-strings all come back as
 * `unknown_call` and change nothing (the store's next track answers the same tree, the folder is untouched); the
 * allowed calls still work afterwards. Both implementations carry every call of the allow-list. Prints
 * attempts / held.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_CALLS, isSnapshotCall } from './snapshots';
import { SnapshotStore } from './store';
import { cleanup, hashFolder, oracleTreeId, tempDir } from './test-support';
import { SnapshotWorker, startSnapshotThread } from './worker-client';
import { shownName, type Reply } from './worker-protocol';

const dirs: string[] = [];
const threads: Worker[] = [];
afterEach(async () => {
  for (const t of threads.splice(0)) await t.terminate();
  for (const d of dirs.splice(0)) cleanup(d);
});

/** Posts one raw request and waits for the reply with its id (log lines are skipped). */
function ask(thread: Worker, request: Record<string, unknown> & { id: number }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Reply): void => {
      if (m.id !== request.id) return;
      thread.off('message', onMessage);
      thread.off('error', reject);
      resolve(m);
    };
    thread.on('message', onMessage);
    thread.on('error', reject);
    thread.postMessage(request);
  });
}

/** Names that reach past the interface on a plain object dispatch: the store's own members and JS's. */
const HOSTILE: unknown[] = [
  // SnapshotStore's private methods and fields
  'run',
  'trackNow',
  'cleanTemporaries',
  'warmPrefetch',
  'loadedCache',
  'persist',
  'checkHash',
  'forget',
  'cacheFile',
  'lastSkipped',
  'walkLeftOut',
  'records',
  'cache',
  'db',
  'lock',
  'opts',
  'reader',
  'indexCache',
  'prefetcher',
  'journalDir',
  'worktree',
  'gitdir',
  'closed',
  // the class and the prototype chain
  'open',
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
  // near misses of allowed names
  'TRACK',
  'track ',
  ' track',
  'track\0',
  'Track',
  'diff_full',
  'readfile',
  '',
  // not strings
  42,
  null,
  undefined,
  true,
  ['track'],
  { toString: 'track' },
];

describe('snapshot worker allow-list', () => {
  it('answers unknown_call for every name that is not a call of Snapshots, and nothing changes', async () => {
    const base = tempDir('allow');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(join(wt, 'src'), { recursive: true });
    writeFileSync(join(wt, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    const thread = startSnapshotThread({ worktree: wt, dataDir: join(base, 'data') });
    threads.push(thread);
    let id = 1;
    expect(await ask(thread, { id: id++, method: 'ready', args: [] })).toMatchObject({ ok: true });
    const tracked = await ask(thread, { id: id++, method: 'track', args: [] });
    expect(tracked).toMatchObject({ ok: true, value: oracleTreeId(wt) });
    const folder = hashFolder(wt);

    const randomNames = fc.sample(
      fc.string({ maxLength: 12 }).filter((s) => !isSnapshotCall(s) && s !== 'ready'),
      { numRuns: 60, seed: 1313 },
    );
    let attempts = 0;
    let held = 0;
    for (const method of [...HOSTILE, ...randomNames]) {
      attempts++;
      const reply = await ask(thread, { id: id++, method, args: [tracked.value, 'src/a.ts'] });
      expect(reply.ok, `method ${shownName(method)}`).toBe(false);
      expect(reply.error?.code, `method ${shownName(method)}`).toBe('unknown_call');
      expect(reply.error?.data).toEqual({ method: shownName(method) });
      held++;
    }
    console.log(`snapshot worker allow-list: ${attempts} attempts / ${held} held`);

    // Nothing was touched, and the allowed calls still answer.
    expect(hashFolder(wt)).toEqual(folder);
    expect(await ask(thread, { id: id++, method: 'track', args: [] })).toMatchObject({
      ok: true,
      value: tracked.value,
    });
    const read = await ask(thread, { id: id++, method: 'readFile', args: [tracked.value, 'src/a.ts'] });
    expect(Buffer.from(read.value as Uint8Array).toString()).toBe('export const a = 1;\n');
    // A request without arguments is answered by the store's own checks, not by a crash of the thread.
    const bad = await ask(thread, { id: id++, method: 'patch' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await ask(thread, { id, method: 'close', args: [] })).toMatchObject({ ok: true });
  });

  it('answers changed(from, to) through the thread as the store does', async () => {
    const base = tempDir('allow-changed');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, 'a.txt'), 'a\n');
    writeFileSync(join(wt, 'b.txt'), 'b\n');
    const w = await SnapshotWorker.open({ worktree: wt, dataDir: join(base, 'data') });
    try {
      const t1 = await w.track();
      writeFileSync(join(wt, 'a.txt'), 'A\n');
      writeFileSync(join(wt, 'c.txt'), 'c\n');
      const t2 = await w.track();
      const changes = await w.changed(t1, t2);
      expect(changes.map((c) => [c.path, c.status])).toEqual([
        ['a.txt', 'modified'],
        ['c.txt', 'added'],
      ]);
      await expect(w.changed(t1, '0'.repeat(40))).rejects.toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await w.close();
    }
  });

  it('the store and the worker client both carry every call of the allow-list, and nothing else is on it', () => {
    const calls = Object.keys(SNAPSHOT_CALLS).sort();
    expect(calls).toEqual(
      [
        'changed',
        'close',
        'diff',
        'diffFull',
        'gc',
        'listFiles',
        'notCaptured',
        'patch',
        'readFile',
        'restore',
        'revert',
        'track',
      ].sort(),
    );
    for (const name of calls) {
      expect(typeof Reflect.get(SnapshotStore.prototype, name), `SnapshotStore.${name}`).toBe('function');
      expect(typeof Reflect.get(SnapshotWorker.prototype, name), `SnapshotWorker.${name}`).toBe('function');
    }
    expect(isSnapshotCall('constructor')).toBe(false);
    expect(isSnapshotCall('__proto__')).toBe(false);
    expect(isSnapshotCall('toString')).toBe(false);
  });
});
