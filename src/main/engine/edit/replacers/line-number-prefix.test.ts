/**
 * Rung 11, line-number-prefix: oldString copied from read output with its line numbers; the numbers must count up
 * by one and be the real line numbers of the text — no search anywhere else.
 */
import { describe, expect, it } from 'vitest';
import { replace } from '../index';
import { lineNumberPrefix, stripLinePrefixes } from './line-number-prefix';
import { candidatesOf, spansOf } from './rung-test-kit';

function landed(r: ReturnType<typeof replace>) {
  if (!r.ok) throw new Error(`expected a landing, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
const code = (r: ReturnType<typeof replace>): string => (r.ok ? `landed:${r.value.rung}` : r.error.code);

const file = 'alpha\nbeta\ngamma\n';

describe('rung line-number-prefix', () => {
  it("finds the lines at exactly the numbers of Landfall's read format, carrying the prefix distortion", () => {
    const [c] = candidatesOf(lineNumberPrefix, file, '2: beta\n3: gamma');
    expect(c).toMatchObject({ start: 6, end: 16, matched: 'beta\ngamma', distortions: [{ kind: 'line_prefix' }] });
  });

  it('accepts read-tool prefixes in the arrow and cat -n formats when the numbers are right', () => {
    expect(landed(replace(file, '2→beta\n3→gamma', 'beta\nGAMMA')).content).toBe('alpha\nbeta\nGAMMA\n');
    expect(landed(replace(file, '     2\tbeta', '     2\tBETA')).content).toBe('alpha\nBETA\ngamma\n');
    expect(code(replace(file, '1→beta', 'x'))).toBe('not_found');
  });

  it('finds nothing when the numbers are not where the text stands (a stale read) or do not count up by one', () => {
    expect(spansOf(lineNumberPrefix, file, '1: beta\n2: gamma')).toEqual([]);
    expect(stripLinePrefixes(['1: alpha', '3: gamma'])).toBeUndefined();
  });

  it('finds nothing unless every line carries a prefix', () => {
    expect(spansOf(lineNumberPrefix, file, '2: beta\ngamma')).toEqual([]);
  });
});
