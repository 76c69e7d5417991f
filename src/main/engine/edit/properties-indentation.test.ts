/**
 * Property tests (fast-check) of two landing rules (indentation.ts, already-applied.ts readsAsNew):
 * - per-level indentation: a block the model recalled in another indentation (2 spaces per level where the file
 *   has 4, spaces where it has tabs, or the reverse) with one line added at any level lands with every unchanged
 *   line byte-identical to the file and the added line in the file's indentation — the expected file is built
 *   here from depths, not by the engine; and sending the same call again changes no byte;
 * - never mixed: when the model's indentation of oldString is random per line, a landing leaves the file's own
 *   lines byte-identical and (unless oldString matched exactly) indents the added line with whole units of the
 *   file's indentation, or nothing lands;
 * - retried append or wrap: an exact edit whose newString holds oldString (lines added after, before, or both)
 *   that landed once is answered already_applied when sent again, and no byte changes.
 * Every case is counted: "attempts / held" is printed after the run.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { replace } from './index';

const tally = {
  levels: { attempts: 0, held: 0 },
  mixed: { attempts: 0, landed: 0, held: 0 },
  append: { attempts: 0, held: 0 },
};
afterAll(() => {
  const { levels, mixed, append } = tally;
  process.stdout.write(
    `\nper-level indentation (land in the file's indentation, retry writes nothing): ${levels.attempts} attempts / ${levels.held} held\n` +
      `random model indentation (file lines kept, added line in whole units, or refused): ${mixed.attempts} attempts (${mixed.landed} landed) / ${mixed.held} held\n` +
      `retried exact append or wrap (already_applied, no byte changed): ${append.attempts} attempts / ${append.held} held\n`,
  );
});

/** A block of distinct statements with depths: starts at 0, each line at most one level deeper than the last. */
const block = fc.array(fc.integer({ min: -2, max: 1 }), { minLength: 2, maxLength: 7 }).map((steps) => {
  const depths = [0];
  for (const s of steps) depths.push(Math.max(0, (depths[depths.length - 1] ?? 0) + s));
  if (!depths.some((d) => d > 0)) depths[1] = 1;
  return depths.map((depth, k) => ({ depth, text: `s${k} = f(${k})` }));
});
const units = fc.constantFrom('    ', '\t', '  ');
type Line = { depth: number; text: string };
const render = (lines: Line[], unit: string): string => lines.map((l) => unit.repeat(l.depth) + l.text + '\n').join('');

describe('a block recalled in another indentation lands in the file indentation, level by level', () => {
  it('unchanged lines stay byte-identical, the added line follows the file; a retry writes nothing', () => {
    fc.assert(
      fc.property(block, units, units, fc.nat(), fc.nat(), (lines, fileUnit, modelUnit, at, lift) => {
        fc.pre(fileUnit !== modelUnit);
        tally.levels.attempts++;
        const file = `${render(lines, fileUnit)}end()\n`;
        const p = 1 + (at % lines.length);
        const prev = lines[p - 1]?.depth ?? 0;
        const added = { depth: Math.max(0, prev + 1 - (lift % (prev + 2))), text: 'added = 1' };
        const withAdded = [...lines.slice(0, p), added, ...lines.slice(p)];
        const oldString = render(lines, modelUnit);
        const newString = render(withAdded, modelUnit);
        const r = replace(file, oldString, newString);
        expect(r.ok ? r.value.content : r.error.code).toBe(`${render(withAdded, fileUnit)}end()\n`);
        if (!r.ok) return;
        const retry = replace(r.value.content, oldString, newString);
        expect(retry.ok ? 'landed again' : retry.error.code).toBe('already_applied');
        tally.levels.held++;
      }),
      { numRuns: 300 },
    );
  });

  it('with random indentation per line in oldString: file lines kept and whole units, or refused', () => {
    const anyIndent = fc.constantFrom('', ' ', '  ', '   ', '    ', '\t', '\t  ');
    fc.assert(
      fc.property(block, units, fc.array(anyIndent, { minLength: 9, maxLength: 9 }), (lines, fileUnit, indents) => {
        tally.mixed.attempts++;
        const file = `${render(lines, fileUnit)}end()\n`;
        const recalled = lines.map((l, k) => `${indents[k] ?? ''}${l.text}\n`);
        const added = `${indents[8] ?? ''}added = 1\n`;
        const r = replace(file, recalled.join(''), [...recalled, added].join(''));
        if (r.ok) {
          tally.mixed.landed++;
          const out = r.value.content.split('\n');
          const expected = file.split('\n');
          const addedAt = out.findIndex((l) => l.trim() === 'added = 1');
          expect(addedAt).toBe(lines.length);
          expect([...out.slice(0, addedAt), ...out.slice(addedAt + 1)]).toEqual(expected);
          // an exact match writes newString as sent (the model's own bytes); a tolerant one in whole file units
          const indent = /^\s*/.exec(out[addedAt] ?? '')?.[0] ?? '';
          if (r.value.rung !== 'simple') expect(indent.split(fileUnit).join('')).toBe('');
        }
        tally.mixed.held++;
      }),
      { numRuns: 300 },
    );
  });
});

describe('a retried exact edit whose newString holds oldString is already_applied', () => {
  it('append, prepend or wrap: the second call writes nothing', () => {
    const stmt = fc.integer({ min: 0, max: 40 }).map((k) => `v${k} = ${k}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(stmt, { minLength: 2, maxLength: 10 }),
        fc.nat(),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom('after', 'before', 'both'),
        (lines, a, n, where) => {
          tally.append.attempts++;
          const file = lines.map((l) => `${l}\n`).join('');
          const at = a % lines.length;
          const oldString = lines
            .slice(at, at + n)
            .map((l) => `${l}\n`)
            .join('');
          const before = where === 'after' ? '' : 'pre = 0\n';
          const after = where === 'before' ? '' : 'post = 9\n';
          const newString = before + oldString + after;
          const first = replace(file, oldString, newString);
          expect(first.ok ? first.value.rung : first.error.code).toBe('simple');
          if (!first.ok) return;
          const retry = replace(first.value.content, oldString, newString);
          expect(retry.ok ? `landed again: ${retry.value.content}` : retry.error.code).toBe('already_applied');
          tally.append.held++;
        },
      ),
      { numRuns: 300 },
    );
  });
});
