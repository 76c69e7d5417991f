/**
 * Property tests (fast-check) of the landing rules real calls were found to break (landings.test.ts has one
 * reproduction of each):
 * - whole lines: for random files and a line-shaped oldString (ending in a line break) recalled with the
 *   distortions models make (indentation, spacing, quotes, a lost trailing comma, drift), any landing covers whole
 *   lines only — judged here by an oracle that does not use the engine's gate;
 * - retry: for any edit that landed, sending it again never changes a byte (it is refused, usually as
 *   already_applied) — for edits whose newString is not a piece of oldString (a deletion leaves nothing to
 *   recognise) and whose oldString no longer stands exactly in the file (then it is a new request, and an exact
 *   unique match is what the model asked for);
 * - uniqueness across rungs: when oldString is not in the file exactly and two or more windows of whole lines
 *   equal it up to one cosmetic tolerance (trimmed lines, collapsed spaces, typographic punctuation folded — an
 *   oracle independent of the rungs), nothing lands.
 * Every case is counted: "attempts / held" is printed after the run.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { replace } from './index';

const LINES = [
  'foo(1),',
  'foo(1)',
  'bar(2, 3);',
  'x = 1',
  'x  =  1',
  'return x;',
  '}',
  '',
  'if (a) {',
  'msg = "it\'s done"',
  'msg = "it\u2019s done"',
  'range = "1-5"',
  'range = "1\u20135"',
  'total += item.cost;',
  'total += item.price;',
  '// note',
];
const indent = fc.constantFrom('', '  ', '    ', '\t');
const line = fc.tuple(indent, fc.constantFrom(...LINES)).map(([i, l]) => (l ? i + l : l));
const file = fc.array(line, { minLength: 1, maxLength: 14 });

/** The distortions a model's memory of a line shows (each keeps the line recognisable). */
const distort = fc.constantFrom(
  (l: string) => l,
  (l: string) => l.trim(),
  (l: string) => `  ${l}`,
  (l: string) => l.replace(/ /g, '  '),
  (l: string) => l.replace(/\u2019/g, "'").replace(/\u2013/g, '-'),
  (l: string) => l.replace(/'/g, '\u2019'),
  (l: string) => l.replace(/,$/, ''),
  (l: string) => l.replace(/cost/, 'price'),
  (l: string) => `${l}  `,
);

/** oldString: a window of the file's lines, each distorted. */
const recalled = (lines: string[]) =>
  fc
    .tuple(fc.nat(), fc.integer({ min: 1, max: 4 }), fc.array(distort, { minLength: 4, maxLength: 4 }))
    .map(([a, n, fs]) => {
      const at = a % lines.length;
      return lines.slice(at, at + n).map((l, k) => (fs[k] ?? ((x: string) => x))(l));
    });

/** newString: oldString's lines with one change a model makes. */
const changed = (oldLines: string[]) =>
  fc
    .constantFrom(
      (ls: string[]) => [...ls, '  // added'],
      (ls: string[]) => [ls[0] ?? '', 'inserted();', ...ls.slice(1)],
      (ls: string[]) => ls.map((l, k) => (k === ls.length - 1 ? `${l} // changed` : l)),
      (ls: string[]) => ls.map((l) => l.replace(/1/g, '7')),
    )
    .map((f) => f(oldLines));

const tally = {
  wholeLines: { attempts: 0, landed: 0, held: 0 },
  retry: { attempts: 0, held: 0, firstRungs: {} as Record<string, number> },
  twoPlaces: { attempts: 0, held: 0 },
};
afterAll(() => {
  const w = tally.wholeLines;
  const r = tally.retry;
  process.stdout.write(
    `\nwhole-line landings: ${w.attempts} attempts (${w.landed} landed) / ${w.held} held\n` +
      `two cosmetic places, no exact one: ${tally.twoPlaces.attempts} attempts / ${tally.twoPlaces.held} held (refused)\n` +
      `retries of applied edits: ${r.attempts} attempts / ${r.held} held (no byte changed); first landings by rung ${JSON.stringify(r.firstRungs)}\n`,
  );
});

/** Oracle: [start, end) of `content` starts and ends on line boundaries (blanks, and a CR at the end, allowed). */
function onWholeLines(content: string, start: number, end: number): boolean {
  const lineStart = content.lastIndexOf('\n', start - 1) + 1;
  const before = /^[ \t]*$/.test(content.slice(lineStart, start));
  const after = content[end - 1] === '\n' || /^[ \t]*(\r?\n|$)/.test(content.slice(end));
  return before && after;
}

const norm = (s: string): string => s.replace(/\r\n/g, '\n');

/** The oracle's cosmetic tolerances, one at a time, applied to a window of lines. */
const TOLERANCES: ((ls: string[]) => string)[] = [
  (ls) => ls.map((l) => l.trim()).join('\n'),
  (ls) => ls.map((l) => l.replace(/\s+/g, ' ').trim()).join('\n'),
  (ls) =>
    ls
      .join('\n')
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u2013\u2014]/g, '-'),
];

/** How many windows of `lines` equal `want` up to one tolerance. */
function cosmeticPlaces(lines: string[], want: string[]): number {
  let n = 0;
  for (let i = 0; i + want.length <= lines.length; i++) {
    const window = lines.slice(i, i + want.length);
    if (TOLERANCES.some((t) => t(window) === t(want))) n++;
  }
  return n;
}

describe('landing rules hold for the whole class', () => {
  it('a line-shaped oldString lands on whole lines only, at every rung', () => {
    fc.assert(
      fc.property(
        file.chain((lines) => fc.tuple(fc.constant(lines), recalled(lines), fc.boolean(), fc.boolean())),
        ([lines, oldLines, crlf, replaceAll]) => {
          tally.wholeLines.attempts++;
          const eol = crlf ? '\r\n' : '\n';
          const content = lines.join(eol) + eol;
          const r = replace(content, oldLines.join('\n') + '\n', 'replaced()\n', { replaceAll });
          if (r.ok) {
            tally.wholeLines.landed++;
            for (const s of r.value.spans) {
              expect(onWholeLines(content, s.start, s.end), JSON.stringify({ content, oldLines, s })).toBe(true);
            }
          }
          tally.wholeLines.held++;
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('two places that fit up to a cosmetic tolerance, and no exact one: nothing lands', () => {
    fc.assert(
      fc.property(
        file.chain((lines) => fc.tuple(fc.constant(lines), recalled(lines), fc.boolean())),
        ([lines, oldLines, lineShaped]) => {
          const content = lines.join('\n') + '\n';
          const oldString = oldLines.join('\n') + (lineShaped ? '\n' : '');
          fc.pre(oldString.trim().length > 0 && !content.includes(oldString));
          fc.pre(cosmeticPlaces(lines, oldLines) >= 2);
          tally.twoPlaces.attempts++;
          const r = replace(content, oldString, 'replaced()');
          const detail = JSON.stringify({ content, oldString });
          expect(r.ok ? `landed:${r.value.rung}` : 'refused', detail).toBe('refused');
          tally.twoPlaces.held++;
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a retry of an edit that landed never changes a byte', () => {
    fc.assert(
      fc.property(
        file.chain((lines) =>
          recalled(lines).chain((oldLines) =>
            fc.tuple(fc.constant(lines), fc.constant(oldLines), changed(oldLines), fc.boolean()),
          ),
        ),
        ([lines, oldLines, newLines, lineShaped]) => {
          const content = lines.join('\n') + '\n';
          const tail = lineShaped ? '\n' : '';
          const oldString = oldLines.join('\n') + tail;
          const newString = newLines.join('\n') + tail;
          fc.pre(!norm(oldString).includes(norm(newString).trim()));
          const first = replace(content, oldString, newString);
          fc.pre(first.ok);
          if (!first.ok) return;
          fc.pre(!first.value.content.includes(oldString));
          tally.retry.attempts++;
          tally.retry.firstRungs[first.value.rung] = (tally.retry.firstRungs[first.value.rung] ?? 0) + 1;
          const retry = replace(first.value.content, oldString, newString);
          const detail = JSON.stringify({ content, oldString, newString, after: first.value.content });
          expect(retry.ok ? `landed:${retry.value.rung}` : 'refused', detail).toBe('refused');
          tally.retry.held++;
        },
      ),
      { numRuns: 1500 },
    );
  });
});
