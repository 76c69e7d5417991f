/**
 * ProgressHub (progress.ts): a store's reports become `progress` events of its project with one id per run; a
 * history move is one operation whose phases are its store's reports; the hub's own operations are throttled with a
 * trailing report, repeated while silent (main's elapsed time), and always ended — on a refusal, a throw, or close.
 * Timers are vitest's fake timers and the clock is the test's, so nothing here waits on a real clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '../../shared/errors';
import type { ProgressEvent } from '../../shared/progress-schemas';
import { ProgressEventSchema } from '../../shared/progress-schemas';
import type { SnapshotProgress } from '../snapshot/progress';
import { HEARTBEAT_MS, ProgressHub } from './progress';

let t = 0;
let seen: ProgressEvent[] = [];
let hub: ProgressHub;
beforeEach(() => {
  vi.useFakeTimers();
  t = 1000;
  seen = [];
  hub = new ProgressHub(
    (e) => seen.push(ProgressEventSchema.parse(e)),
    () => t,
  );
});
afterEach(() => {
  hub.close();
  vi.useRealTimers();
});

/** Advances the test's clock and the fake timers together. */
function advance(ms: number): void {
  t += ms;
  vi.advanceTimersByTime(ms);
}

function store(run: number, state: SnapshotProgress['state'], done: number, elapsedMs: number): SnapshotProgress {
  return {
    run,
    operation: 'first-track',
    state,
    phase: 'walk',
    count: { done, unit: 'files' },
    bytes: { done: done * 10 },
    elapsedMs,
  };
}

describe('ProgressHub', () => {
  it("tags a store's run with its project and one id, lists it while it runs, and forgets it at its end", () => {
    hub.storeReport('prj_a', store(1, 'start', 0, 0));
    hub.storeReport('prj_b', store(1, 'start', 0, 0));
    hub.storeReport('prj_a', store(1, 'running', 500, 120));
    const [a0, b0, a1] = seen;
    expect(a0).toMatchObject({ type: 'progress', projectId: 'prj_a', operation: 'first-track', state: 'start' });
    expect(a1).toMatchObject({ id: a0!.id, state: 'running', count: { done: 500 }, elapsedMs: 120 });
    expect(b0!.id).not.toBe(a0!.id);
    advance(50);
    expect(hub.active().find((e) => e.id === a0!.id)?.elapsedMs).toBe(170); // brought up to date by main's clock
    hub.storeReport('prj_a', store(1, 'end', 900, 300));
    expect(seen.at(-1)).toMatchObject({ id: a0!.id, state: 'end' });
    expect(hub.active().map((e) => e.projectId)).toEqual(['prj_b']);
    hub.storeReport('prj_a', store(7, 'end', 1, 1)); // an end whose start was never seen: nothing
    expect(seen).toHaveLength(4);
  });

  it('repeats a silent report with its elapsed time brought up to date (what decides "show after 300 ms")', () => {
    hub.storeReport('prj_a', store(1, 'start', 0, 0));
    advance(HEARTBEAT_MS * 2);
    const repeats = seen.slice(1);
    expect(repeats.length).toBeGreaterThanOrEqual(1);
    expect(repeats.at(-1)!.elapsedMs).toBeGreaterThanOrEqual(HEARTBEAT_MS);
    expect(repeats.every((e) => e.id === seen[0]!.id && e.state === 'running')).toBe(true);
  });

  it("a history move is one operation: its store's reports become its phases; a refusal ends it failed", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const move = hub.around('revert', { projectId: 'prj_a', sessionId: 'ses_1' }, async (run) => {
      hub.storeReport('prj_a', { ...store(3, 'start', 0, 0), operation: 'track' });
      run.phase('plan', { done: 1, total: 4, unit: 'files' });
      hub.storeReport('prj_a', { ...store(4, 'start', 0, 0), operation: 'revert', phase: 'write' });
      await gate;
      return fail('conflict', 'changed since', 'look at the files first');
    });
    release();
    const r = await move;
    expect(r.ok).toBe(false);
    expect(new Set(seen.map((e) => e.id)).size).toBe(1);
    expect(seen.every((e) => e.operation === 'revert' && e.sessionId === 'ses_1')).toBe(true);
    expect(seen.map((e) => `${e.state}:${e.phase ?? ''}`)).toEqual([
      'start:',
      'running:walk',
      'running:plan',
      'running:write',
      'failed:write',
    ]);
    expect(seen.at(-1)!.error).toEqual({ code: 'conflict', message: 'changed since' });
    expect(hub.active()).toEqual([]);
  });

  it('a move that throws ends failed and rethrows; a move that succeeds ends', async () => {
    await expect(
      hub.around('undo', { projectId: 'prj_a' }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen.at(-1)).toMatchObject({ state: 'failed', error: { code: 'internal', message: 'boom' } });
    await hub.around('redo', { projectId: 'prj_a' }, async () => ok(1));
    expect(seen.at(-1)).toMatchObject({ operation: 'redo', state: 'end' });
  });

  it("throttles its own operations' counts, sends the trailing count, and close() fails what still runs", () => {
    const run = hub.begin('import', { projectId: 'prj_a' });
    run.phase('upload', { done: 0, total: 1000, unit: 'characters' });
    for (let i = 1; i <= 50; i++) {
      advance(1);
      run.update({ done: i * 20, total: 1000, unit: 'characters' });
    }
    const counted = seen.filter((e) => e.phase === 'upload');
    expect(counted.length).toBeLessThan(5);
    advance(100); // the trailing report: the last count is never lost
    expect(seen.at(-1)!.count).toEqual({ done: 1000, total: 1000, unit: 'characters' });
    hub.close();
    expect(seen.at(-1)).toMatchObject({ id: run.id, state: 'failed', error: { code: 'unavailable' } });
    run.end(); // after its end: ignored
    expect(seen.filter((e) => e.state === 'end')).toEqual([]);
  });
});
