/**
 * Line endings inside and around a landed span (line-endings.ts, rule in `endingsFor`):
 * - a mixed LF/CRLF file: lines outside the span are byte-identical, and each replaced line keeps the ending of the
 *   line it is paired with (same text at the start or end of the span, else the same position);
 * - a new line with no partner takes the ending of the region it lands in;
 * - property: for any mix of endings, bytes outside the reported span never change, the endings of untouched lines
 *   never change, and a line-for-line rewrite keeps every line's ending.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replace } from './index';
import type { ReplaceSuccess } from './index';
import type { Result } from '../../../shared/errors';

function landed(r: Result<ReplaceSuccess>): ReplaceSuccess {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('line endings in a mixed file', () => {
  it('a span covering `b\\n` + `c\\r\\n` keeps LF on b and CRLF on c', () => {
    const file = 'a\r\nb\nc\r\nd\n';
    expect(landed(replace(file, 'b\nc\n', 'B\nC\n')).content).toBe('a\r\nB\nC\r\nd\n');
  });

  it('a line-for-line rewrite keeps each line its own ending', () => {
    const file = 'one\r\ntwo\nthree\r\nfour\n';
    expect(landed(replace(file, 'two\nthree', 'TWO\nTHREE')).content).toBe('one\r\nTWO\nTHREE\r\nfour\n');
  });

  it('an inserted line takes the ending of the region it lands in, paired lines keep theirs', () => {
    const file = 'x\nhead\r\ntail\nz\r\n';
    // head and tail are paired by text; the new middle line lands after head (CRLF region)
    expect(landed(replace(file, 'head\ntail\n', 'head\nmid\ntail\n')).content).toBe('x\nhead\r\nmid\r\ntail\nz\r\n');
  });

  it('a deleted line takes its ending with it, the others keep theirs', () => {
    const file = 'a\nb\r\nc\nd\r\n';
    expect(landed(replace(file, 'a\nb\nc\n', 'a\nc\n')).content).toBe('a\nc\nd\r\n');
  });

  it("splitting a line inside one line uses that line's ending, not the file's majority", () => {
    const file = 'p\r\nq\r\nr\r\nfoo bar\ns\r\n';
    expect(landed(replace(file, 'foo bar', 'foo\nbar')).content).toBe('p\r\nq\r\nr\r\nfoo\nbar\ns\r\n');
  });

  it('a pure CRLF file stays pure CRLF, a pure LF file never gains a CR', () => {
    expect(landed(replace('a\r\nb\r\nc\r\n', 'b\n', 'b\nb2\nb3\n')).content).toBe('a\r\nb\r\nb2\r\nb3\r\nc\r\n');
    expect(landed(replace('a\nb\nc\n', 'b\r\n', 'b\r\nb2\r\n')).content).toBe('a\nb\nb2\nc\n');
  });

  it('a lone CR is text, not a line ending: kept byte for byte outside the span', () => {
    const file = 'a\rb\r\nc\nd';
    expect(landed(replace(file, 'c', 'C')).content).toBe('a\rb\r\nC\nd');
  });
});

describe('line ending properties', () => {
  const lineText = fc.stringMatching(/^[a-z ]{0,5}$/);
  const ending = fc.constantFrom('\n', '\r\n');
  const lines = fc.array(fc.tuple(lineText, ending), { minLength: 1, maxLength: 12 });

  it('bytes outside the span never change and untouched lines keep their endings', () => {
    fc.assert(
      fc.property(
        lines,
        fc.nat(),
        fc.nat(),
        fc.array(lineText, { maxLength: 6 }),
        fc.boolean(),
        (ls, a, b, news, keepCount) => {
          const raw = ls.map(([t, e]) => t + e).join('');
          const first = a % ls.length;
          const last = first + (b % (ls.length - first));
          const oldLines = ls.slice(first, last + 1).map(([t]) => t);
          const old = oldLines.map((t) => `${t}\n`).join('');
          // a line-for-line rewrite (same count) or any other count of new lines
          const repl = keepCount ? oldLines.map((t, i) => `${t}X${news[i] ?? ''}\n`) : news.map((t) => `${t}Y\n`);
          const r = replace(raw, old, repl.join(''));
          if (!r.ok) return;
          const { start, end, content } = r.value;
          expect(content.slice(0, start)).toBe(raw.slice(0, start));
          expect(content.slice(content.length - (raw.length - end))).toBe(raw.slice(end));
          // untouched lines: every line of the output outside the span keeps its ending
          const before = raw.slice(0, start).match(/[^\n]*\n/g) ?? [];
          const after = raw.slice(end).match(/[^\n]*\n/g) ?? [];
          expect(content.startsWith(before.join(''))).toBe(true);
          expect(content.endsWith(after.join(''))).toBe(true);
          if (keepCount && r.value.rung === 'simple') {
            const outLines = content.slice(start, content.length - (raw.length - end)).match(/[^\n]*\n/g) ?? [];
            const inLines = raw.slice(start, end).match(/[^\n]*\n/g) ?? [];
            expect(outLines.map((l) => l.endsWith('\r\n'))).toEqual(inLines.map((l) => l.endsWith('\r\n')));
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
