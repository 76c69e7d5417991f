/** Pass 3, trim: whitespace at both ends ignored, whitespace inside the line still counts. */
import { describe, expect, it } from 'vitest';
import { where } from './pass-test-kit';
import { trim } from './trim';

describe('pass trim', () => {
  it('matches re-indented lines', () => {
    expect(trim.key('\t  return 1  ')).toBe('return 1');
    expect(where(['def f():', '        return 1'], ['def f():', '    return 1'])).toBe('trim@0');
  });

  it('does not ignore whitespace inside a line', () => {
    expect(where(['a  =  1'], ['a = 1'])).toBe('none');
  });

  it('two places equal once trimmed are ambiguous (when no stricter pass matched)', () => {
    expect(where(['  a()', '    a()'], ['a()'])).toBe('ambiguous:trim@0,1');
  });
});
