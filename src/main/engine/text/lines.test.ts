/** Lines with their terminators, LF line starts and CRLF → LF: exact bytes back, nothing lost. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLf, lineStarts, splitLines, toLf } from './lines';

describe('splitLines', () => {
  it('keeps each line its own terminator, a lone CR as text, and no final newline as none', () => {
    expect(splitLines('a\r\nb\nc\rd')).toEqual({
      texts: ['a', 'b', 'c\rd'],
      eols: ['\r\n', '\n', ''],
      offsets: [0, 3, 5, 8],
      finalNewline: false,
      eol: '\r\n',
    });
    expect(splitLines('')).toEqual({ texts: [], eols: [], offsets: [0], finalNewline: true, eol: '\n' });
  });

  it('property: the lines and their terminators join back to the text, at the offsets given', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\r', '\n', '\r\n')), (parts) => {
        const text = parts.join('');
        const lines = splitLines(text);
        expect(lines.texts.map((t, i) => t + lines.eols[i]).join('')).toBe(text);
        lines.texts.forEach((t, i) =>
          expect(text.slice(lines.offsets[i], lines.offsets[i + 1])).toBe(t + lines.eols[i]),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('LF helpers', () => {
  it('lineStarts: where each LF-split line starts; a final LF starts an empty last line', () => {
    expect(lineStarts('ab\ncd\n')).toEqual([0, 3, 6]);
    expect(lineStarts('')).toEqual([0]);
  });

  it('countLf counts every line break; toLf turns CRLF into LF and keeps a lone CR', () => {
    expect(countLf('a\r\nb\nc\r')).toBe(2);
    expect(toLf('a\r\nb\r\r\nc\r')).toBe('a\nb\r\nc\r');
    const same = 'no crlf\n';
    expect(toLf(same)).toBe(same);
  });
});
