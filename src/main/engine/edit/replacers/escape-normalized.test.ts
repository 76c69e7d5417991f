/**
 * Rung 6, escape-normalized: oldString arrived over-escaped (`\n`, `\"`, `\uXXXX` as characters); unescaped, it is
 * looked up exactly, else as whole lines equal after trimming. newString is unescaped only when it is over-escaped
 * the same way.
 */
import { describe, expect, it } from 'vitest';
import { replace } from '../index';
import { escapeNormalized, sameEscaping } from './escape-normalized';
import { candidatesOf, spansOf } from './rung-test-kit';

function landed(r: ReturnType<typeof replace>) {
  if (!r.ok) throw new Error(`expected a landing, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('rung escape-normalized', () => {
  it('finds the unescaped text exactly, carrying the escape distortion', () => {
    const [c] = candidatesOf(escapeNormalized, 'print("a")\nprint("b")\n', 'print(\\"b\\")');
    expect(c).toMatchObject({ start: 11, end: 21, rung: 'escape-normalized', distortions: [{ kind: 'escape' }] });
    expect(spansOf(escapeNormalized, 'a\n\tb\n', 'a\\n\\tb')).toEqual(['a\n\tb']);
  });

  it('falls back to whole lines equal after trimming (over-escaping often loses the indentation)', () => {
    expect(spansOf(escapeNormalized, 'if x:\n    go()\n    stop()\n', 'go()\\nstop()')).toEqual([
      '    go()\n    stop()',
    ]);
  });

  it('finds nothing when oldString holds no escape sequence', () => {
    expect(spansOf(escapeNormalized, 'print("b")\n', 'print("b")')).toEqual([]);
  });

  it('unescapes newString only when it is over-escaped like oldString', () => {
    const file = 'print("a")\nprint("b")\n';
    expect(landed(replace(file, 'print(\\"b\\")', 'print("b\\n")')).content).toBe('print("a")\nprint("b\\n")\n');
    expect(landed(replace(file, 'print(\\"b\\")', 'print(\\"c\\")')).content).toBe('print("a")\nprint("c")\n');
    expect(sameEscaping('a\\nb', 'c\nd')).toBe(false);
  });

  it('unescapes \\uXXXX and CRLF escapes and keeps a CRLF file pure CRLF', () => {
    expect(landed(replace('say \u2018hi\u2019\n', 'say \\u2018hi\\u2019', 'say hello')).content).toBe('say hello\n');
    expect(landed(replace('a\r\nb\r\nc\r\n', 'a\\r\\nb', 'a\\r\\nB')).content).toBe('a\r\nB\r\nc\r\n');
  });
});
