/**
 * edit and apply_patch against the same typographic text. The model sends ASCII where the file has a typographic
 * character (or a composed letter where the file has it decomposed); whether that lands must not depend on which
 * of the two tools the model picked.
 *
 * As found: the two engines kept two fold tables, and they disagree. This test records where (it is turned into an
 * agreement test by the change that gives both engines one table).
 */
import { describe, expect, it } from 'vitest';
import { replace } from './index';
import { parsePatch } from '../patch/parse';
import { updateText } from '../patch/plan';
import type { UpdateOperation } from '../patch/types';

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

const cases: Array<{ name: string; file: string; model: string }> = [
  { name: "U+2032 prime ′ for '", file: 'note = 5\u2032x', model: "note = 5'x" },
  { name: 'U+2033 double prime ″ for "', file: 'note = 5\u2033x', model: 'note = 5"x' },
  { name: 'U+00AB/U+00BB guillemets « » for "', file: 'note = \u00ABhi\u00BB', model: 'note = "hi"' },
  { name: 'U+2000 en quad for a space', file: 'note =\u2000x', model: 'note = x' },
  { name: 'U+2001 em quad for a space', file: 'note =\u2001x', model: 'note = x' },
  { name: 'e + U+0301 (NFD) for é (NFC)', file: 'note = caf\u0065\u0301', model: 'note = caf\u00e9' },
];

describe('edit and apply_patch on typographic text (as found: two tables)', () => {
  it('agree on curly quotes, which both tables fold', () => {
    expect([
      throughEdit('note = \u2018hi\u2019', "note = 'hi'"),
      throughPatch('note = \u2018hi\u2019', "note = 'hi'"),
    ]).toEqual(['landed', 'landed']);
  });

  for (const c of cases) {
    it(`disagree on ${c.name}: edit lands, apply_patch finds no match`, () => {
      expect([throughEdit(c.file, c.model), throughPatch(c.file, c.model)]).toEqual(['landed', 'no_match']);
    });
  }
});
