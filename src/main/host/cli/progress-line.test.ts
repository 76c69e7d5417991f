/**
 * The command line's progress line (progress-line.ts) on a fake TTY stream: exact bytes written — nothing before an
 * operation has run 300 ms, one line rewritten in place (`\r` + erase-line) while it runs, erased when it ends or
 * fails or before other output, cut to the terminal's width; and not one byte on a stream that is not a TTY.
 */
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../../shared/progress-schemas';
import { ERASE_LINE, ProgressLine, type LineStream } from './progress-line';

/** A stream that records every write; `isTTY` and `columns` as a terminal (or a pipe) would set them. */
function fakeStream(isTTY: boolean, columns = 80): LineStream & { written: string[] } {
  const written: string[] = [];
  return {
    isTTY,
    columns,
    written,
    write(text: string) {
      written.push(text);
      return true;
    },
  };
}

function report(over: Partial<ProgressEvent>): ProgressEvent {
  return {
    type: 'progress',
    id: 'prg_1',
    operation: 'first-track',
    projectId: 'prj_1',
    state: 'running',
    phase: 'walk',
    count: { done: 1204, unit: 'files' },
    bytes: { done: 4_100_000 },
    elapsedMs: 400,
    ...over,
  };
}

describe('progress line', () => {
  it('draws nothing before 300 ms, then rewrites one line in place and erases it at the end', () => {
    const s = fakeStream(true);
    const line = new ProgressLine(s);
    line.report(report({ state: 'start', elapsedMs: 0, count: { done: 0, unit: 'files' }, bytes: { done: 0 } }));
    line.report(report({ elapsedMs: 299 }));
    expect(s.written).toEqual([]);
    line.report(report({}));
    line.report(report({ count: { done: 3000, unit: 'files' }, bytes: { done: 12_000_000 }, elapsedMs: 800 }));
    line.report(report({ state: 'end', elapsedMs: 900 }));
    expect(s.written).toEqual([
      `${ERASE_LINE}First snapshot of the project — reading files: 1,204 files · 4.1 MB`,
      `${ERASE_LINE}First snapshot of the project — reading files: 3,000 files · 12.0 MB`,
      ERASE_LINE,
    ]);
  });

  it('shows a known total as "of" with a percentage, and a failed operation leaves no line', () => {
    const s = fakeStream(true);
    const line = new ProgressLine(s);
    line.report(
      report({ id: 'prg_2', operation: 'restore', phase: 'write', count: { done: 120, total: 400, unit: 'files' } }),
    );
    line.report(report({ id: 'prg_2', operation: 'restore', state: 'failed', elapsedMs: 500 }));
    expect(s.written).toEqual([
      `${ERASE_LINE}Restoring files — writing files: 120 of 400 files · 4.1 MB (30%)`,
      ERASE_LINE,
    ]);
  });

  it('clear() erases before other output, once; the end of another operation leaves the line alone', () => {
    const s = fakeStream(true);
    const line = new ProgressLine(s);
    line.report(report({}));
    line.report(report({ id: 'prg_other', state: 'end' }));
    line.clear();
    line.clear();
    expect(s.written).toEqual([
      `${ERASE_LINE}First snapshot of the project — reading files: 1,204 files · 4.1 MB`,
      ERASE_LINE,
    ]);
  });

  it('cuts the line to the terminal width less one column, with an ellipsis', () => {
    const s = fakeStream(true, 30);
    new ProgressLine(s).report(report({}));
    const text = s.written[0]!.slice(ERASE_LINE.length);
    expect(text).toBe('First snapshot of the projec…');
    expect(text.length).toBe(29);
  });

  it('writes not one byte when the stream is not a TTY', () => {
    const s = fakeStream(false);
    const line = new ProgressLine(s);
    expect(line.enabled).toBe(false);
    line.report(report({}));
    line.report(report({ count: { done: 9, total: 9, unit: 'files' }, elapsedMs: 5000 }));
    line.report(report({ state: 'end' }));
    line.clear();
    expect(s.written).toEqual([]);
  });
});
