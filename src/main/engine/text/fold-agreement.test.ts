/**
 * edit and apply_patch against the same typographic text. The model sends ASCII where the file has a typographic
 * character (or a composed letter where the file has it decomposed); whether that lands must not depend on which
 * of the two tools the model picked. Both engines fold with the one table (unicode-fold.ts).
 *
 * As found on main, the two tables disagreed: edit folded ′ ″ « » and apply_patch did not; apply_patch missed
 * U+2000, U+2001 and NFC. Each of those is decided here by the rule a fold may only make two strings equal that a
 * reader would call the same text: the primes and guillemets land through neither tool, the quads and NFD text
 * through both.
 */
import { describe, expect, it } from 'vitest';
import { replace } from '../edit';
import { parsePatch, updateText, type UpdateOperation } from '../patch';
import { FOLD_TABLE } from './unicode-fold';

/** `landed` or the error code of edit's replace() of the line `model` by `note = ok` in a file holding `file`. */
function throughEdit(file: string, model: string): string {
  const r = replace(`before\n${file}\nafter\n`, model, 'note = ok');
  return r.ok ? 'landed' : r.error.code;
}

/** The same through apply_patch's planner: a hunk whose removed line is `model`. */
function throughPatch(file: string, model: string): string {
  const parsed = parsePatch(
    ['*** Begin Patch', '*** Update File: f.txt', '@@', `-${model}`, '+note = ok', '*** End Patch'].join('\n'),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  const r = updateText(parsed.value.operations[0] as UpdateOperation, `before\n${file}\nafter\n`);
  return r.ok ? 'landed' : r.error.code;
}

const decided: Array<{ name: string; file: string; model: string; both: 'landed' | 'refused' }> = [
  { name: "U+2032 prime ′ for '", file: 'note = 5\u2032x', model: "note = 5'x", both: 'refused' },
  { name: 'U+2033 double prime ″ for "', file: 'note = 5\u2033x', model: 'note = 5"x', both: 'refused' },
  { name: 'U+00AB/U+00BB guillemets « » for "', file: 'note = \u00ABhi\u00BB', model: 'note = "hi"', both: 'refused' },
  { name: 'U+2000 en quad for a space', file: 'note =\u2000x', model: 'note = x', both: 'landed' },
  { name: 'U+2001 em quad for a space', file: 'note =\u2001x', model: 'note = x', both: 'landed' },
  { name: 'e + U+0301 (NFD) for é (NFC)', file: 'note = caf\u0065\u0301', model: 'note = caf\u00e9', both: 'landed' },
  { name: 'é (NFC) for e + U+0301 (NFD)', file: 'note = caf\u00e9', model: 'note = caf\u0065\u0301', both: 'landed' },
];

/** edit's answer and apply_patch's answer, each as 'landed' or 'refused'. */
function both(file: string, model: string): [string, string] {
  const verdict = (code: string) => (code === 'landed' ? 'landed' : 'refused');
  return [verdict(throughEdit(file, model)), verdict(throughPatch(file, model))];
}

describe('edit and apply_patch agree on typographic text (one fold table)', () => {
  for (const c of decided) {
    it(`${c.name}: ${c.both} through both`, () => {
      expect(both(c.file, c.model)).toEqual([c.both, c.both]);
    });
  }

  it('every character the table folds lands through both, in the middle of a word and as a quote pair', () => {
    let attempts = 0;
    for (const [ch, ascii] of Object.entries(FOLD_TABLE)) {
      for (const [file, model] of [
        [`note = 5${ch}x`, `note = 5${ascii}x`],
        [`note = ${ch}hi${ch}`, `note = ${ascii}hi${ascii}`],
      ] as const) {
        attempts++;
        expect([ch, ...both(file, model)]).toEqual([ch, 'landed', 'landed']);
      }
    }
    console.log(`fold table through edit and apply_patch: ${attempts} attempts / ${attempts} held`);
  });

  it('look-alikes outside the table land through neither (quotes, dashes, dots and spaces of other blocks)', () => {
    // every character of these blocks that is not in the table, against every ASCII text a fold produces; the
    // characters JS counts as white space are left out: edit's whitespace-normalized rung collapses those inside a
    // line and apply_patch has no such pass (a difference of the two ladders, not of the fold)
    const blocks: Array<[number, number]> = [
      [0x00a1, 0x00ff],
      [0x02b0, 0x02ff],
      [0x2016, 0x2017],
      [0x2020, 0x2025],
      [0x2027, 0x205e],
      [0x2060, 0x206f],
      [0x2213, 0x2219],
      [0x3001, 0x303f],
      [0xfe50, 0xfe6b],
      [0xff01, 0xff5e],
    ];
    let attempts = 0;
    for (const [from, last] of blocks) {
      for (let cp = from; cp <= last; cp++) {
        const ch = String.fromCodePoint(cp);
        if (FOLD_TABLE[ch] !== undefined || /\s/u.test(ch) || /\p{M}/u.test(ch)) continue;
        for (const ascii of ["'", '"', '-', '.', ' ', '...']) {
          attempts++;
          expect([cp.toString(16), ...both(`note = 5${ch}x`, `note = 5${ascii}x`)]).toEqual([
            cp.toString(16),
            'refused',
            'refused',
          ]);
        }
      }
    }
    console.log(`look-alikes through edit and apply_patch: ${attempts} attempts / ${attempts} held`);
  });
});
