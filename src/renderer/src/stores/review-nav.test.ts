import { describe, expect, it } from 'vitest';
import type { ReviewDiff, ReviewHunk } from '../../../shared/review-schemas';
import { pendingCount } from '../../../shared/review-change';
import { findHunk, hunkAtLine, nextPending, stepHunk } from './review-nav';

const hunk = (id: string, state: ReviewHunk['state']): ReviewHunk => ({
  id,
  kind: 'lines',
  oldStart: 1,
  oldLines: 1,
  newStart: 1,
  newLines: 1,
  lines: ['-a', '+b'],
  state,
});
const file = (path: string, hunks: ReviewHunk[]): ReviewDiff['files'][number] => ({
  path,
  status: 'modified',
  beforeSize: 1,
  afterSize: 1,
  additions: 1,
  deletions: 1,
  hunks,
});
const diff: ReviewDiff = {
  from: 'a',
  to: 'b',
  scope: 'a..b',
  files: [
    file('x', [hunk('x1', 'accepted'), hunk('x2', 'pending')]),
    file('y', []),
    file('z', [hunk('z1', 'pending'), hunk('z2', 'rejected')]),
  ],
};

describe('review navigation', () => {
  it('passes over hunks a revert took off disk: not pending for the view, the toolbar or the keys', () => {
    const x2 = { ...hunk('x2', 'pending'), reverted: 'unrevert_brings_back' as const };
    const reverted: ReviewDiff = { ...diff, files: [file('x', [hunk('x1', 'accepted'), x2]), ...diff.files.slice(1)] };
    expect(nextPending(reverted, { file: 0, hunk: 0 })).toEqual({ file: 2, hunk: 0 });
    expect([pendingCount(diff), pendingCount(reverted), pendingCount(reverted, 'x')]).toEqual([2, 1, 0]);
    const none: ReviewDiff = { ...reverted, files: [reverted.files[0]!] };
    expect(nextPending(none, null)).toBe(null);
  });

  it('walks hunks in reading order across files, wrapping at both ends', () => {
    expect(stepHunk(diff, null, 1)).toEqual({ file: 0, hunk: 0 });
    expect(stepHunk(diff, { file: 0, hunk: 1 }, 1)).toEqual({ file: 2, hunk: 0 });
    expect(stepHunk(diff, { file: 2, hunk: 1 }, 1)).toEqual({ file: 0, hunk: 0 });
    expect(stepHunk(diff, { file: 0, hunk: 0 }, -1)).toEqual({ file: 2, hunk: 1 });
    expect(stepHunk({ ...diff, files: [] }, null, 1)).toBeNull();
  });

  it('moves on to the next pending hunk after a decision, wrapping, or null when none is left', () => {
    expect(nextPending(diff, { file: 0, hunk: 0 })).toEqual({ file: 0, hunk: 1 });
    expect(nextPending(diff, { file: 2, hunk: 1 })).toEqual({ file: 0, hunk: 1 });
    const done = {
      ...diff,
      files: diff.files.map((f) => ({ ...f, hunks: f.hunks.map((h) => ({ ...h, state: 'accepted' as const })) })),
    };
    expect(nextPending(done, null)).toBeNull();
    expect(findHunk(diff, 'z2')).toEqual({ file: 2, hunk: 1 });
  });
});

describe('hunkAtLine', () => {
  const h = (id: string, oldStart: number, oldLines: number, newStart: number, newLines: number): ReviewHunk => ({
    id,
    kind: 'lines',
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines: [],
    state: 'pending',
  });
  const d: ReviewDiff = {
    from: 'a',
    to: 'b',
    scope: 'a..b',
    files: [
      {
        path: 'f',
        status: 'modified',
        beforeSize: 0,
        afterSize: 0,
        additions: 0,
        deletions: 0,
        // A 2-line change at 3–4, an insertion of 2 lines at new 8–9, a deletion of old line 12 (sits before new 11).
        hunks: [h('a', 3, 2, 3, 2), h('b', 8, 0, 8, 2), h('c', 12, 1, 11, 0)],
      },
    ],
  };
  it('finds the hunk a modified-side line is in, and the one a deletion sits beside', () => {
    expect([3, 4, 5, 8, 9, 10, 11, 1].map((l) => hunkAtLine(d, 0, l, 'modified')?.hunk ?? null)).toEqual([
      0,
      0,
      null,
      1,
      1,
      2,
      2,
      null,
    ]);
  });
  it('reads the old text on the original side', () => {
    expect([3, 7, 8, 12, 13].map((l) => hunkAtLine(d, 0, l, 'original')?.hunk ?? null)).toEqual([0, 1, 1, 2, null]);
  });
});
