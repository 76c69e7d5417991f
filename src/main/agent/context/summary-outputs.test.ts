/**
 * Old tool outputs in the summary request (summary-outputs.ts): the exact text an old output becomes (start, a
 * marker with exact counts, the error lines of the middle with their numbers, end), and a property over random
 * outputs (LF, CRLF, UTF-8, one huge line): every count is exact and every shown line is the original's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_LINES, LINE_CHARS, shortenOutput } from './summary-outputs';

const log = (n: number, errorAt: number[] = []): string[] =>
  Array.from({ length: n }, (_, i) =>
    errorAt.includes(i + 1) ? `E   AssertionError: retry ${i + 1} != 3` : `tests/test_mod.py::test_${i + 1} PASSED`,
  );

describe('shortenOutput', () => {
  it('keeps the first and last 6 lines, says exactly what was left out, and keeps the error lines between', () => {
    const lines = log(40, [17, 30]);
    const text = `${lines.join('\n')}\n`;
    const r = shortenOutput(text);
    // lines 7–34 are the middle (28 lines), 2 of them are kept as error lines: 26 left out, by hand:
    // test_7 … test_9 are 32 characters + a line break, the 23 of test_10 … test_34 (less 17 and 30) 33 + 1
    const chars = 3 * 33 + 23 * 34;
    expect(r).toEqual({
      text: [
        ...lines.slice(0, 6),
        `[… 26 of 40 lines (881 characters) of this output left out of the summary request; 2 line(s) of it that name an error follow …]`,
        'line 17: E   AssertionError: retry 17 != 3',
        'line 30: E   AssertionError: retry 30 != 3',
        '[…]',
        ...lines.slice(34),
      ].join('\n'),
      omittedLines: 26,
      omittedChars: chars,
      errorLines: 2,
      errorLinesLeftOut: 0,
    });
  });

  it('a short output is left whole; one huge line keeps its start and counts the rest', () => {
    expect(shortenOutput(log(12).join('\n'))).toBeUndefined();
    const huge = 'x'.repeat(10_000);
    expect(shortenOutput(huge)).toEqual({
      text: `${'x'.repeat(LINE_CHARS)}[… ${10_000 - LINE_CHARS} more characters of this line]`,
      omittedLines: 0,
      omittedChars: 10_000 - LINE_CHARS,
      errorLines: 0,
      errorLinesLeftOut: 0,
    });
  });

  it(`keeps at most ${ERROR_LINES} error lines and counts the others as left out`, () => {
    const lines = log(
      200,
      Array.from({ length: ERROR_LINES + 10 }, (_, i) => 50 + i),
    );
    const r = shortenOutput(lines.join('\n'));
    expect([r?.errorLines, r?.errorLinesLeftOut, r?.omittedLines]).toEqual([ERROR_LINES, 10, 200 - 12 - ERROR_LINES]);
    expect(r?.text).toContain(`; ${ERROR_LINES} line(s) of it that name an error follow (10 more left out) …]`);
    expect(r?.text).toContain(`line ${49 + ERROR_LINES}: E   AssertionError: retry ${49 + ERROR_LINES} != 3`);
    expect(r?.text).not.toContain(`line ${50 + ERROR_LINES}:`);
  });
});

const piece = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\r', 'é', '😀', '中文', 'TypeError: x is undefined', ' FAILED', ''),
);
const line = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
/** Random outputs: lines with LF or CRLF endings, or one huge line, or huge lines among short ones. */
const output = fc.oneof(
  fc
    .tuple(fc.array(line, { maxLength: 300 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
    .map(([ls, nl, end]) => ls.join(nl) + (end ? nl : '')),
  fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 3000 }))
    .map(([s, n]) => s.repeat(n)),
  fc
    .tuple(fc.array(line, { maxLength: 40 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }))
    .map(([ls, s]) => `${ls.join('\n')}\n${s.repeat(400)}\n${ls.join('\r\n')}`),
);

const MARKER = /^\[… (\d+) of (\d+) lines \((\d+) characters\) of this output left out of the summary request/;
const CUT = /\[… (\d+) more characters of this line\]$/;

/** The original lines of `text` (independent of the module's walk): split at LF, a final LF ends the last line. */
function originals(text: string): { text: string; size: number }[] {
  const parts = text.split('\n');
  if (text.endsWith('\n')) parts.pop();
  return parts.map((t, i) => ({ text: t, size: t.length + (i < parts.length - 1 || text.endsWith('\n') ? 1 : 0) }));
}

describe('shortenOutput (property)', () => {
  it('counts exact, every shown line is the original line (or its start), attempts / held', () => {
    let attempts = 0;
    let held = 0;
    const kinds = { whole: 0, linesCut: 0, middleLeftOut: 0 };
    fc.assert(
      fc.property(output, (text) => {
        attempts++;
        const lines = originals(text);
        const r = shortenOutput(text);
        if (r === undefined) {
          expect(lines.length).toBeLessThanOrEqual(12);
          for (const l of lines) expect(l.text.length).toBeLessThanOrEqual(LINE_CHARS);
          kinds.whole++;
          held++;
          return;
        }
        const out = r.text.split('\n');
        const at = out.findIndex((l) => MARKER.test(l));
        const shown: { n: number; piece: string }[] = [];
        kinds[at === -1 ? 'linesCut' : 'middleLeftOut']++;
        if (at === -1) {
          // nothing left out but the end of long lines: every line is shown, in order
          expect(out).toHaveLength(lines.length);
          out.forEach((piece, i) => shown.push({ n: i + 1, piece }));
        } else {
          const m = MARKER.exec(out[at] as string) as RegExpExecArray;
          expect([Number(m[1]), Number(m[2]), Number(m[3])]).toEqual([r.omittedLines, lines.length, r.omittedChars]);
          out.slice(0, at).forEach((piece, i) => shown.push({ n: i + 1, piece }));
          const errs = out.slice(at + 1, at + 1 + r.errorLines);
          for (const e of errs) {
            const em = /^line (\d+): /.exec(e) as RegExpExecArray;
            shown.push({ n: Number(em[1]), piece: e.slice(em[0].length) });
          }
          const tail = out.slice(
            at + 1 + r.errorLines + (r.errorLines > 0 && out.length > at + 1 + r.errorLines ? 1 : 0),
          );
          tail.forEach((piece, i) => shown.push({ n: lines.length - tail.length + i + 1, piece }));
          expect(lines.length - shown.length).toBe(r.omittedLines);
        }
        let shownChars = 0;
        for (const { n, piece } of shown) {
          const orig = lines[n - 1] as { text: string; size: number };
          const cut = CUT.exec(piece);
          const kept = cut ? piece.slice(0, piece.length - cut[0].length) : piece;
          expect(orig.text.startsWith(kept)).toBe(true);
          expect(kept.length + Number(cut?.[1] ?? 0)).toBe(orig.text.length);
          shownChars += orig.size - Number(cut?.[1] ?? 0);
        }
        expect(shownChars + r.omittedChars).toBe(text.length);
        held++;
      }),
      { numRuns: 300 },
    );
    console.log(`shortened outputs, counts exact: attempts ${attempts} / held ${held} (${JSON.stringify(kinds)})`);
    expect(Math.min(kinds.whole, kinds.linesCut, kinds.middleLeftOut)).toBeGreaterThan(0);
  });
});
