import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, cutOutput, DEFAULT_CAP_LIMITS, utf8Bytes, type CapLimits } from './output-cap';

/** Byte ranges [start, end) of each line of `text` (independent of the module's own line walk). */
function lineRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  const bytes = Buffer.from(text, 'utf8');
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push([start, bytes.length]);
  return out;
}

const piece = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\n', '\r\n', 'é', '😀', '中文', '\r', ''),
);
const line = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
/** Random outputs: many lines of mixed text with LF or CRLF endings, or one huge line, or both. */
const output = fc.oneof(
  fc
    .tuple(fc.array(line, { maxLength: 400 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
    .map(([ls, nl, end]) => ls.join(nl) + (end ? nl : '')),
  fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4000 }))
    .map(([s, n]) => s.repeat(n)),
  fc
    .tuple(fc.array(line, { maxLength: 50 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }))
    .map(([ls, s]) => `${ls.join('\n')}\n${s.repeat(500)}\n${ls.join('\r\n')}`),
);
const limits = fc
  .record({ maxLines: fc.integer({ min: 1, max: 60 }), maxBytes: fc.integer({ min: 8, max: 4000 }) })
  .chain((l) =>
    fc.record({
      maxLines: fc.constant(l.maxLines),
      maxBytes: fc.constant(l.maxBytes),
      previewLines: fc.integer({ min: 1, max: l.maxLines }),
      previewBytes: fc.integer({ min: 4, max: l.maxBytes }),
    }),
  );

describe('cutOutput', () => {
  it('within both caps: nothing is cut', () => {
    expect(cutOutput('a\nb\n')).toBeUndefined();
    expect(cutOutput('x'.repeat(DEFAULT_CAP_LIMITS.maxBytes))).toBeUndefined();
    expect(cutOutput('x\n'.repeat(DEFAULT_CAP_LIMITS.maxLines))).toBeUndefined();
  });

  it('cuts at line boundaries with exact counts (3,000 numbered lines)', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`).join('');
    const cut = cutOutput(text);
    expect(cut).toBeDefined();
    if (!cut) return;
    expect(cut.head.startsWith('line 1\n')).toBe(true);
    expect(cut.head.endsWith('\n')).toBe(true);
    expect(cut.tail.endsWith('line 3000\n')).toBe(true);
    expect(cut.tail.startsWith('line ')).toBe(true);
    expect(cut.headLines + cut.tailLines + cut.omittedLines).toBe(3000);
    expect(countLines(cut.head) + countLines(cut.tail)).toBeLessThanOrEqual(DEFAULT_CAP_LIMITS.previewLines);
  });

  it('one huge line (CRLF around it): start and end of it shown, cut at a character boundary', () => {
    const text = `a\r\n${'😀'.repeat(100_000)}\r\nz\r\n`;
    const cut = cutOutput(text);
    if (!cut) throw new Error('expected a cut');
    expect(cut.head).toMatch(/^a\r\n😀+$/u);
    expect(cut.tail).toMatch(/^😀+\r\nz\r\n$/u);
    expect(cut.headPartial && cut.tailPartial).toBe(true);
    expect(cut.omittedLines).toBe(1);
  });

  it('property: preview within the caps, counts exact, head + middle + tail is the original (attempts / held)', () => {
    let attempts = 0;
    let held = 0;
    fc.assert(
      fc.property(output, limits, (text: string, l: CapLimits) => {
        attempts++;
        const cut = cutOutput(text, l);
        const bytes = Buffer.from(text, 'utf8');
        const ranges = lineRanges(text);
        if (cut === undefined) {
          expect(ranges.length <= l.maxLines && bytes.length <= l.maxBytes).toBe(true);
          held++;
          return;
        }
        expect(ranges.length > l.maxLines || bytes.length > l.maxBytes).toBe(true);
        const head = Buffer.from(cut.head, 'utf8');
        const tail = Buffer.from(cut.tail, 'utf8');
        // head is a prefix, tail a suffix, they do not overlap, and what lies between is what was left out
        expect(bytes.subarray(0, head.length).equals(head)).toBe(true);
        expect(bytes.subarray(bytes.length - tail.length).equals(tail)).toBe(true);
        expect(head.length + tail.length + cut.omittedBytes).toBe(bytes.length);
        expect(cut.omittedBytes).toBeGreaterThan(0);
        expect(head.length + tail.length).toBeLessThanOrEqual(l.previewBytes);
        // the preview never ends or starts between a surrogate pair's halves (valid UTF-16 → exact UTF-8)
        expect(utf8Bytes(cut.head)).toBe(head.length);
        expect(cut.head + cut.tail).toBe(Buffer.concat([head, tail]).toString('utf8'));
        // lines: those wholly inside head or tail are shown; every other line is counted as left out
        const tailStart = bytes.length - tail.length;
        const full = ranges.filter(([s, e]) => e <= head.length || s >= tailStart).length;
        expect(cut.totalLines).toBe(ranges.length);
        expect(cut.omittedLines).toBe(ranges.length - full);
        expect(cut.headLines + cut.tailLines).toBe(full);
        expect(cut.headLines + cut.tailLines).toBeLessThanOrEqual(l.previewLines);
        held++;
      }),
      { numRuns: 400 },
    );
    console.log(`output cap property: attempts ${attempts} / held ${held}`);
    expect(held).toBe(attempts);
  });
});
