/**
 * The progress slice's decisions (progress-slice.ts), pure: a bar shows only for the open project's operations that
 * main says have run 300 ms; a report replaces the last one of its operation unless older; an end removes it; the
 * rows say the operation's name, phase and numbers, and a fraction only when a total is known.
 */
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/progress-schemas';
import { progressRows, withReport } from './progress-slice';

function ev(over: Partial<ProgressEvent>): ProgressEvent {
  return {
    type: 'progress',
    id: 'prg_1',
    operation: 'restore',
    projectId: 'prj_a',
    state: 'running',
    elapsedMs: 0,
    ...over,
  };
}

describe('progress slice', () => {
  it('shows the open project’s operations once main says they ran 300 ms, and drops them at their end', () => {
    let s = withReport({}, ev({ state: 'start' }));
    expect(progressRows(s, 'prj_a')).toEqual([]);
    s = withReport(s, ev({ elapsedMs: 299 }));
    expect(progressRows(s, 'prj_a')).toEqual([]);
    s = withReport(s, ev({ elapsedMs: 300, phase: 'write', count: { done: 120, total: 400, unit: 'files' } }));
    expect(progressRows(s, 'prj_a')).toEqual([
      {
        id: 'prg_1',
        operation: 'restore',
        name: 'Restoring files',
        detail: 'writing files · 120 of 400 files',
        fraction: 0.3,
      },
    ]);
    expect(progressRows(s, 'prj_b')).toEqual([]);
    expect(progressRows(s, undefined)).toEqual([]);
    s = withReport(s, ev({ elapsedMs: 200 })); // older than what is held (a list answer): ignored
    expect(progressRows(s, 'prj_a')[0]?.fraction).toBe(0.3);
    s = withReport(s, ev({ state: 'end', elapsedMs: 900 }));
    expect(s).toEqual({});
  });

  it('a walk without a total has no fraction (never a made-up percentage)', () => {
    const s = withReport(
      {},
      ev({
        operation: 'first-track',
        phase: 'walk',
        elapsedMs: 800,
        count: { done: 12408, unit: 'files' },
        bytes: { done: 48_200_000 },
      }),
    );
    expect(progressRows(s, 'prj_a')).toEqual([
      {
        id: 'prg_1',
        operation: 'first-track',
        name: 'First snapshot of the project',
        detail: 'reading files · 12,408 files · 48.2 MB',
        fraction: undefined,
      },
    ]);
  });
});
