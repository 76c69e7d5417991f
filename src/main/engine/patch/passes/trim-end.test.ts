/** Pass 2, trim_end: trailing whitespace ignored, indentation still counts. */
import { describe, expect, it } from 'vitest';
import { where } from './pass-test-kit';
import { trimEnd } from './trim-end';

describe('pass trim_end', () => {
  it('matches a line whose trailing spaces or tabs the model dropped or added', () => {
    expect(trimEnd.key('x = 1 \t')).toBe('x = 1');
    expect(where(['x = 1  \t', 'y'], ['x = 1', 'y'])).toBe('trim_end@0');
    expect(where(['x = 1', 'y'], ['x = 1   ', 'y'])).toBe('trim_end@0');
  });

  it('does not ignore leading whitespace: the indentation tells a method from a function', () => {
    expect(trimEnd.key('  x')).toBe('  x');
    expect(where(['    return 1'], ['return 1'])).toBe('trim@0');
  });
});
