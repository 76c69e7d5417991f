/** Rung 7, trimmed-boundary: oldString carries whitespace or blank lines around the text that the file lacks. */
import { describe, expect, it } from 'vitest';
import { candidatesOf, spansOf } from './rung-test-kit';
import { trimmedBoundary } from './trimmed-boundary';

describe('rung trimmed-boundary', () => {
  it('finds the trimmed core exactly and records the boundary it cut (the loop cuts it from newString too)', () => {
    const [c] = candidatesOf(trimmedBoundary, 'a\nfoo();\nb\n', '\n\nfoo();  \n');
    expect(c).toMatchObject({
      start: 2,
      end: 8,
      rung: 'trimmed-boundary',
      distortions: [{ kind: 'boundary', leading: '\n\n', trailing: '  \n' }],
    });
  });

  it('finds nothing when oldString has no boundary to cut, or is only whitespace', () => {
    expect(spansOf(trimmedBoundary, 'foo();\n', 'foo();')).toEqual([]);
    expect(spansOf(trimmedBoundary, 'a\n\n\nb\n', '\n\n')).toEqual([]);
  });

  it('finds nothing when the core itself is not in the file byte for byte', () => {
    expect(spansOf(trimmedBoundary, 'foo( );\n', ' foo(); ')).toEqual([]);
  });
});
