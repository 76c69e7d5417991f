/**
 * Pass 4, unicode: trimmed and folded by the engines' one unicode fold (src/main/engine/text/unicode-fold.ts) — the
 * fold edit's unicode-punctuation rung uses, so a text lands through both tools or neither.
 */
import { describe, expect, it } from 'vitest';
import { where } from './pass-test-kit';
import { unicode } from './unicode';

describe('pass unicode', () => {
  it('matches typographic quotes, dashes, odd spaces and the ellipsis written as ASCII, and the reverse', () => {
    expect(unicode.key('  \u201Cq\u201D \u2014 a\u00A0b\u2026 ')).toBe('"q" - a b...');
    expect(where(['say \u2018hi\u2019 \u2013 ok'], ["say 'hi' - ok"])).toBe('unicode@0');
    expect(where(["it's 1-2"], ['it\u2019s 1\u20132'])).toBe('unicode@0');
    expect(where(['wait\u2026'], ['wait...'])).toBe('unicode@0');
  });

  it('matches a decomposed letter against the composed one (NFC), and the en/em quads as spaces', () => {
    expect(where(['caf\u0065\u0301 = 1'], ['caf\u00e9 = 1'])).toBe('unicode@0');
    expect(where(['a\u2000=\u20011'], ['a = 1'])).toBe('unicode@0');
  });

  it('does not match primes, guillemets or fullwidth look-alikes: a reader does not call them the same text', () => {
    expect(where(['h = 5\u2032'], ["h = 5'"])).toBe('none');
    expect(where(['s = 5\u2033'], ['s = 5"'])).toBe('none');
    expect(where(['m = \u00ABhi\u00BB'], ['m = "hi"'])).toBe('none');
    expect(where(['q = \uFF02hi\uFF02'], ['q = "hi"'])).toBe('none');
  });
});
