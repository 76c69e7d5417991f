/**
 * Rung 10, unicode-punctuation: oldString fits once both texts are folded by the engines' one unicode fold
 * (src/main/engine/text/unicode-fold.ts); the file's own characters are what gets replaced, newString verbatim.
 */
import { describe, expect, it } from 'vitest';
import { replace } from '../index';
import { spansOf } from './rung-test-kit';
import { unicodePunctuation } from './unicode-punctuation';

function landed(r: ReturnType<typeof replace>) {
  if (!r.ok) throw new Error(`expected a landing, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('rung unicode-punctuation', () => {
  it("finds the file's typographic text for ASCII in oldString, and the reverse", () => {
    expect(spansOf(unicodePunctuation, 'say \u201Chi\u201D \u2014 ok\n', 'say "hi" - ok')).toEqual([
      'say \u201Chi\u201D \u2014 ok',
    ]);
    expect(spansOf(unicodePunctuation, "it's 1-2\n", 'it\u2019s 1\u20132')).toEqual(["it's 1-2"]);
    expect(spansOf(unicodePunctuation, 'a\u00A0b\n', 'a b')).toEqual(['a\u00A0b']);
  });

  it('folds an ellipsis and dashes both ways, newString verbatim', () => {
    expect(landed(replace('Wait\u2026 done \u2014 ok\n', 'Wait... done - ok', 'Go.')).content).toBe('Go.\n');
    expect(landed(replace('range 1-2\n', 'range 1\u20132', 'range 1\u20133')).content).toBe('range 1\u20133\n');
  });

  it('matches NFD text against NFC oldString and writes newString verbatim', () => {
    const file = 'caf\u0065\u0301 au lait\n';
    expect(landed(replace(file, 'caf\u00e9 au lait', 'th\u00e9')).content).toBe('th\u00e9\n');
  });

  it('finds nothing that starts or ends inside a folded character (".." of a "…")', () => {
    expect(spansOf(unicodePunctuation, 'wait\u2026\n', 'wait..')).toEqual([]);
  });

  it('finds nothing for primes or guillemets: they are not the quotes a reader would read them as', () => {
    expect(spansOf(unicodePunctuation, 'h = 5\u2032 6\u2033\n', 'h = 5\' 6"')).toEqual([]);
    expect(spansOf(unicodePunctuation, 'msg = \u00ABhi\u00BB\n', 'msg = "hi"')).toEqual([]);
  });

  it('finds nothing in a file without foldable text for an oldString without it (the exact rung decides)', () => {
    expect(spansOf(unicodePunctuation, 'plain ascii\n', 'plain ascii')).toEqual([]);
  });
});
