/**
 * The parcel backend's settle (watch-parcel.ts): markers go out one at a time, so a marker whose batch was queued
 * while this thread was busy answers only the settle it was made for, never one that began after it; a settle that
 * can make no marker answers false and ends the subscription. Real @parcel/watcher subscriptions on temp folders.
 */
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ParcelTreeWatcher } from './watch-parcel';
import { cleanup, tempDir } from './test-support';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) cleanup(d);
  dirs = [];
});

function tree(): string {
  const base = tempDir('parcel');
  dirs.push(base);
  const root = join(realpathSync(base), 'wt');
  mkdirSync(join(root, 'd'), { recursive: true });
  writeFileSync(join(root, 'd/e'), 'one');
  return root;
}

/** A parcel watcher on `root` (it must be able to start on this machine). */
async function watcherOn(root: string): Promise<ParcelTreeWatcher> {
  const w = await ParcelTreeWatcher.start(root);
  if (!w) throw new Error('parcel could not start here');
  return w;
}

/** Holds this thread for `ms` without returning to the event loop (as a full walk holds the snapshot worker's). */
function holdThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('parcel settle', () => {
  it('a marker delivered late answers its own settle only: a settle begun after it waits for its own marker', async () => {
    const root = tree();
    const w = await watcherOn(root);
    expect(w.take().full).toBe(true);
    const first = w.settle();
    // Parcel queues the first marker's batch meanwhile (its first batch goes out at once); this thread takes it
    // only after the change below was made and the second settle began.
    holdThread(200);
    writeFileSync(join(root, 'd/e'), 'two');
    const second = w.settle();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect([...w.take().events]).toEqual(['d/e']);
    expect(w.stats.settleTimeouts).toBe(0);
    await w.close();
  });

  it('settles called together share one marker, and each later round makes its own', async () => {
    const root = tree();
    const w = await watcherOn(root);
    w.take();
    expect(await Promise.all([w.settle(), w.settle(), w.settle()])).toEqual([true, true, true]);
    writeFileSync(join(root, 'd/f'), 'new');
    expect(await w.settle()).toBe(true);
    expect([...w.take().events]).toEqual(['d/f']);
    await w.close();
  });

  it('a settle that cannot make its marker answers false, and the next take asks for a full walk', async () => {
    const root = tree();
    const w = await watcherOn(root);
    w.take();
    rmSync(root, { recursive: true });
    expect(await w.settle()).toBe(false);
    expect(w.broken).toBe(true);
    expect(await w.settle()).toBe(false);
    expect(w.take().full).toBe(true);
    await w.close();
  });

  it('close answers a waiting settle false at once', async () => {
    const root = tree();
    const w = await watcherOn(root);
    const waiting = w.settle();
    await w.close();
    expect(await waiting).toBe(false);
  });
});
