/** Rung 2, line-trimmed: every line of oldString equals the file line at the same place once both are trimmed. */
import { describe, expect, it } from 'vitest';
import { lineTrimmed } from './line-trimmed';
import { candidatesOf, spansOf } from './rung-test-kit';

describe('rung line-trimmed', () => {
  it('finds whole lines whose indentation or trailing whitespace drifted, as whole lines', () => {
    const file = 'def f():\n    x = 1   \n    return x\n';
    expect(spansOf(lineTrimmed, file, '  x = 1\n  return x')).toEqual(['    x = 1   \n    return x']);
    const [c] = candidatesOf(lineTrimmed, file, 'x = 1');
    expect(c).toMatchObject({ start: 9, end: 21, rung: 'line-trimmed', lineAligned: true });
  });

  it('finds every place that fits (two lines equal once trimmed are two places)', () => {
    expect(spansOf(lineTrimmed, '  a()\n    a()\n', 'a()')).toEqual(['  a()', '    a()']);
  });

  it('tells the loop when oldString ended with a line break the span leaves out', () => {
    const [c] = candidatesOf(lineTrimmed, '  a()\nb\n', 'a()\n');
    expect(c?.distortions).toEqual([{ kind: 'trailing_newline' }]);
  });

  it('finds nothing when inner whitespace differs, a line is only part of a file line, or oldString is blank', () => {
    expect(spansOf(lineTrimmed, 'a  =  1\n', 'a = 1')).toEqual([]);
    expect(spansOf(lineTrimmed, 'port = 9000\n', 'port = 90')).toEqual([]);
    expect(spansOf(lineTrimmed, 'a\n\n\nb\n', '\n\n')).toEqual([]);
  });
});
