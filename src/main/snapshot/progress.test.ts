/**
 * Progress of the snapshot store's long operations (issue 18 §2), on real stores over a generated tree of 3,000
 * files in nested folders: a first track, a later full walk, a restore, a revert and gc each report a run of
 * events in order (start, running…, end), counts never go back within a phase and never pass their total, the last
 * report says done == total, the bytes add up to what was read or written, and a walk reports far fewer events than
 * it has files (throttled); a worker thread killed mid-walk leaves no run open. The meter itself is also checked with
 * a stepped clock (exact throttling).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { ProgressMeter, type SnapshotProgress } from './progress';
import { SnapshotWorker } from './worker-client';
import { cleanup, tempDir } from './test-support';

const FILES = 3000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

/** A tree of FILES files, 3 levels of folders, sizes 1 B – 6 KB; answers the paths and their total size. */
function generate(wt: string): { paths: string[]; bytes: number } {
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < FILES; i++) {
    const rel = `d${i % 7}/e${i % 13}/f${i % 5}/file${i}.txt`;
    const body = `${i}:`.padEnd(1 + ((i * 2654435761) % 6000), String.fromCharCode(97 + (i % 26)));
    mkdirSync(dirname(join(wt, rel)), { recursive: true });
    writeFileSync(join(wt, rel), body);
    paths.push(rel);
    bytes += Buffer.byteLength(body);
  }
  return { paths, bytes };
}

async function setup(): Promise<{ wt: string; dataDir: string; paths: string[]; bytes: number }> {
  const root = tempDir('progress');
  dirs.push(root);
  const wt = join(root, 'wt');
  mkdirSync(wt);
  return { wt, dataDir: join(root, 'data'), ...generate(wt) };
}

/** The reports of one run, checked for the rules every run keeps; answers them. */
function oneRun(reports: SnapshotProgress[], operation: SnapshotProgress['operation']): SnapshotProgress[] {
  const runs = new Set(reports.map((r) => r.run));
  expect(runs.size).toBe(1);
  expect(reports.every((r) => r.operation === operation)).toBe(true);
  expect(reports[0]?.state).toBe('start');
  expect(reports.at(-1)?.state).toBe('end');
  expect(reports.slice(1, -1).every((r) => r.state === 'running')).toBe(true);
  for (let i = 1; i < reports.length; i++) {
    const [a, b] = [reports[i - 1]!, reports[i]!];
    expect(b.elapsedMs).toBeGreaterThanOrEqual(a.elapsedMs);
    if (a.phase === b.phase) {
      expect(b.count!.done).toBeGreaterThanOrEqual(a.count!.done);
      expect(b.bytes!.done).toBeGreaterThanOrEqual(a.bytes!.done);
    }
  }
  for (const r of reports) {
    if (r.count?.total !== undefined) expect(r.count.done).toBeLessThanOrEqual(r.count.total);
    if (r.bytes?.total !== undefined) expect(r.bytes.done).toBeLessThanOrEqual(r.bytes.total);
  }
  const last = reports.at(-1)!;
  expect(last.count!.done).toBe(last.count!.total);
  expect(last.bytes!.done).toBe(last.bytes!.total);
  return reports;
}

describe('snapshot store progress', () => {
  it('first track, a later full walk, restore, revert and gc each report one ordered, throttled run', async () => {
    const { wt, dataDir, paths, bytes } = await setup();
    const seen: SnapshotProgress[] = [];
    const store = await SnapshotStore.open({
      worktree: wt,
      dataDir,
      ignoreDefaults: [],
      progress: (r) => seen.push(r),
    });
    try {
      const first = await store.track();
      const ft = oneRun(seen.splice(0), 'first-track');
      expect(new Set(ft.map((r) => r.phase))).toEqual(new Set(['walk']));
      expect(ft.at(-1)!.count).toEqual({ done: FILES, total: FILES, unit: 'files' });
      expect(ft.at(-1)!.bytes).toEqual({ done: bytes, total: bytes }); // every byte read and hashed, once
      expect(ft.length).toBeLessThan(FILES / 20);

      // A later track is a full walk without a watcher: reported as `track`, every file looked at (files written
      // within the racy window of the first track are read again, so its bytes are at most the tree's).
      await store.track();
      const again = oneRun(seen.splice(0), 'track');
      expect(again.at(-1)!.count!.done).toBe(FILES);
      expect(again.at(-1)!.bytes!.done).toBeLessThanOrEqual(bytes);

      // Change 300 files (new sizes), delete 100, add 50: restore brings back the first tree.
      const changed = paths.slice(0, 300);
      const deleted = paths.slice(300, 400);
      for (const p of changed) writeFileSync(join(wt, p), `changed ${p}\n`);
      for (const p of deleted) rmSync(join(wt, p));
      for (let i = 0; i < 50; i++) writeFileSync(join(wt, `d0/new${i}.txt`), `new ${i}\n`);
      const edited = await store.track();
      seen.splice(0);
      const report = await store.restore(first);
      expect(report.failed).toEqual([]);
      const rs = oneRun(seen.splice(0), 'restore');
      const phases = rs.map((r) => r.phase).filter((p, i, a) => p !== a[i - 1]);
      expect(phases).toEqual(['walk', 'prepare', 'write']);
      const written = rs.at(-1)!;
      expect(written.count).toEqual({ done: 450, total: 450, unit: 'files' });
      const restoredBytes = [...changed, ...deleted].reduce((n, p) => n + readFileSync(join(wt, p)).length, 0);
      expect(written.bytes!.done).toBe(restoredBytes);

      // Revert the 300 changed files to the edited tree's bytes.
      seen.splice(0);
      const reverted = await store.revert([{ hash: edited, files: changed }]);
      expect(reverted.failed).toEqual([]);
      const rv = oneRun(seen.splice(0), 'revert');
      expect(rv.at(-1)!.phase).toBe('write');
      expect(rv.at(-1)!.count).toEqual({ done: 300, total: 300, unit: 'files' });
      expect(rv.at(-1)!.bytes!.done).toBe(changed.reduce((n, p) => n + Buffer.byteLength(`changed ${p}\n`), 0));

      // gc keeping nothing but the last track: mark, prune (and repack when a pack holds dead objects).
      await store.track();
      seen.splice(0);
      await store.gc({ keep: [], olderThanMs: 0 });
      const gc = oneRun(seen.splice(0), 'gc');
      expect(gc[0]!.phase).toBe('mark');
      expect(gc.some((r) => r.phase === 'prune')).toBe(true);
      expect(gc.every((r) => r.count!.unit === 'objects')).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('reports from the worker thread arrive in the calling thread, the first track on open', async () => {
    const { wt, dataDir, bytes } = await setup();
    const seen: SnapshotProgress[] = [];
    let ended: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const w = await SnapshotWorker.open({
      worktree: wt,
      dataDir,
      ignoreDefaults: [],
      watch: true,
      progress: (r) => {
        seen.push(r);
        if (r.state === 'end') ended();
      },
    });
    try {
      await done; // the worker's own first track, started on open: no call made
      const ft = oneRun(seen.splice(0), 'first-track');
      expect(ft.at(-1)!.count!.done).toBe(FILES);
      expect(ft.at(-1)!.bytes!.done).toBe(bytes);
    } finally {
      await w.close();
    }
  });

  it('a worker thread that dies mid-walk leaves no run open: its last report comes back failed', async () => {
    const { wt, dataDir } = await setup();
    const seen: SnapshotProgress[] = [];
    const held: { thread?: { terminate(): Promise<number> } } = {};
    let failed: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (failed = resolve));
    const w = await SnapshotWorker.open({
      worktree: wt,
      dataDir,
      ignoreDefaults: [],
      watch: true,
      progress: (r) => {
        seen.push(r);
        if (r.state === 'start') void held.thread?.terminate(); // killed while it walks
        if (r.state === 'failed') failed();
      },
    });
    held.thread = (w as unknown as { worker: { terminate(): Promise<number> } }).worker;
    if (seen.some((r) => r.state === 'start')) void held.thread.terminate(); // the start came before we held it
    await gone;
    expect(seen[0]).toMatchObject({ operation: 'first-track', state: 'start' });
    expect(seen.at(-1)).toMatchObject({
      run: seen[0]!.run,
      state: 'failed',
      error: { code: 'unavailable', message: 'the snapshot worker stopped before the operation ended' },
    });
    expect(seen.filter((r) => r.state === 'end')).toEqual([]);
  });

  it('an operation refused before its first phase reports nothing (no start, so no end owed)', async () => {
    const { wt, dataDir } = await setup();
    const seen: SnapshotProgress[] = [];
    const store = await SnapshotStore.open({
      worktree: wt,
      dataDir,
      ignoreDefaults: [],
      progress: (r) => seen.push(r),
    });
    try {
      await expect(store.restore('0'.repeat(40))).rejects.toThrow();
      expect(seen).toEqual([]); // refused before any phase: nothing announced, nothing to end
    } finally {
      await store.close();
    }
  });
});

describe('ProgressMeter with a stepped clock', () => {
  it('reports start, a running report per throttle window, every phase at once, and one end', () => {
    let t = 0;
    const seen: SnapshotProgress[] = [];
    const meter = new ProgressMeter(
      (r) => seen.push(r),
      () => (t += 1),
    );
    meter.run('restore', () => {
      meter.phase('prepare', 'files', { items: 1000 });
      for (let i = 0; i < 1000; i++) meter.tick(1, 10);
      meter.phase('write', 'files', { items: 1000 });
      for (let i = 0; i < 1000; i++) meter.tick(1, 0);
    });
    expect(seen[0]).toMatchObject({ state: 'start', phase: 'prepare' });
    expect(seen.at(-1)).toMatchObject({ state: 'end', phase: 'write', count: { done: 1000, total: 1000 } });
    expect(seen.filter((r) => r.state === 'start' || r.state === 'end')).toHaveLength(2);
    expect(seen.filter((r) => r.phase === 'write' && r.state === 'running')[0]?.count?.done).toBe(0);
    // prepare: a tick costs ≥ 1 ms on this clock, so at most one report per 100 ticks; write reads the clock
    // every 16th tick only, so fewer still — and never one report per file.
    const running = seen.filter((r) => r.state === 'running');
    expect(running.length).toBeGreaterThan(5);
    expect(running.length).toBeLessThan(40);
    for (let i = 1; i < seen.length; i++)
      if (seen[i]!.phase === seen[i - 1]!.phase && seen[i]!.state === 'running')
        expect(seen[i]!.elapsedMs - seen[i - 1]!.elapsedMs).toBeGreaterThanOrEqual(100);
  });

  it('reports failed with the error when the run throws, and a silent run says nothing', async () => {
    const seen: SnapshotProgress[] = [];
    const meter = new ProgressMeter((r) => seen.push(r));
    await expect(
      meter.run('gc', async () => {
        meter.phase('mark', 'objects');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(seen.map((r) => r.state)).toEqual(['start', 'failed']);
    expect(seen[1]!.error).toEqual({ code: 'internal', message: 'disk full' });
    seen.splice(0);
    meter.run('track', () => meter.tick(5, 5));
    expect(seen).toEqual([]);
  });
});
