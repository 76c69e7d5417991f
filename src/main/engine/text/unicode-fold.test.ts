/** The one unicode fold: its table, the characters it leaves alone, and its offset map back to the source. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOLDABLE, FOLD_TABLE, FOLD_TARGETS, foldLine, foldText, toSourceOffset } from './unicode-fold';

describe('the fold table', () => {
  it('folds typographic quotes, dashes, odd spaces and the ellipsis to ASCII', () => {
    expect(foldLine('\u2018a\u2019 \u201Cb\u201D \u201Ac\u201B \u201Ed\u201F')).toBe(`'a' "b" 'c' "d"`);
    expect(foldLine('1\u20102\u20113\u20124\u20135\u20146\u20157\u22128')).toBe('1-2-3-4-5-6-7-8');
    expect(foldLine('a\u00A0b\u2000c\u2001d\u200Ae\u202Ff\u205Fg\u3000h')).toBe('a b c d e f g h');
    expect(foldLine('wait\u2026')).toBe('wait...');
  });

  it('composes a letter and its combining marks (NFC), and only those', () => {
    expect(foldLine('cafe\u0301 nai\u0308ve')).toBe('caf\u00e9 na\u00efve');
    // a singleton NFC would rewrite, with no mark beside it, is not part of the fold
    expect(foldLine('\u212B')).toBe('\u212B');
  });

  it('leaves alone what a reader does not call the same text: primes, guillemets, look-alikes', () => {
    for (const ch of [
      '\u2032',
      '\u2033',
      '\u00AB',
      '\u00BB',
      '\u02BC',
      '\u00B4',
      '\uFF02',
      '\uFF07',
      '\uFF0D',
      '\u2039',
    ]) {
      expect([ch, foldLine(`a${ch}b`)]).toEqual([ch, `a${ch}b`]);
      expect([ch, FOLDABLE.test(ch)]).toEqual([ch, false]);
    }
  });

  it("folds only to ' \" - . and space (edit's anchor search treats exactly those as breaks)", () => {
    expect(FOLD_TARGETS).toBe(` "'-.`);
  });

  it('FOLDABLE finds every character of the table and any combining mark', () => {
    for (const ch of Object.keys(FOLD_TABLE)) expect([ch, FOLDABLE.test(`x${ch}y`)]).toEqual([ch, true]);
    expect(FOLDABLE.test('e\u0301')).toBe(true);
    expect(FOLDABLE.test('plain ASCII \' " - ...')).toBe(false);
  });
});

describe('offsets map back to the source', () => {
  it('one-for-one folds keep every offset; a text with nothing to fold is its own fold', () => {
    const f = foldText('\u201Cq\u201D\u2014x');
    expect(f.text).toBe('"q"-x');
    expect([0, 1, 2, 3, 4, 5].map((i) => toSourceOffset(f, i))).toEqual([0, 1, 2, 3, 4, 5]);
    const plain = 'nothing to fold';
    expect(foldText(plain)).toEqual({ text: plain, clusters: [], starts: [] });
  });

  it('a length-changing cluster maps its ends back, and nothing inside it', () => {
    const f = foldText('a\u2026b e\u0301!');
    expect(f.text).toBe('a...b \u00e9!');
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => toSourceOffset(f, i))).toEqual([
      0,
      1,
      undefined,
      undefined,
      2,
      3,
      4,
      6,
      7,
    ]);
  });

  it('property: a folded prefix ending where an offset maps back is the fold of the source prefix', () => {
    const alphabet = fc.constantFrom(
      'a',
      'e',
      ' ',
      '.',
      '\u2018',
      '\u201D',
      '\u2014',
      '\u00A0',
      '\u2026',
      '\u0301',
      '\u0308',
    );
    let attempts = 0;
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => {
        const source = chars.join('');
        const folded = foldText(source);
        for (let f = 0; f <= folded.text.length; f++) {
          const s = toSourceOffset(folded, f);
          if (s === undefined) continue;
          attempts++;
          expect(foldText(source.slice(0, s)).text).toBe(folded.text.slice(0, f));
        }
      }),
      { numRuns: 300 },
    );
    console.log(`fold offset map: ${attempts} attempts / ${attempts} held`);
  });
});
