/** Rung 4, whitespace-normalized: every run of whitespace counts as one space. */
import { describe, expect, it } from 'vitest';
import { candidatesOf, spansOf } from './rung-test-kit';
import { whitespaceNormalized } from './whitespace-normalized';

describe('rung whitespace-normalized', () => {
  it('one line: finds the words with any spacing between them, anywhere in a line', () => {
    expect(spansOf(whitespaceNormalized, 'if (a &&\tb)  { go(); }\n', 'a && b) {')).toEqual(['a &&\tb)  {']);
  });

  it('one line starting with whitespace: read as a whole line first, so the span takes its indentation', () => {
    const [c] = candidatesOf(whitespaceNormalized, 'x\n\t  return  a;\n', '  return a;');
    expect([c?.start, c?.end, c?.lineAligned]).toEqual([2, 15, true]);
  });

  it('whitespace around a mid-line oldString is a boundary the loop strips from newString too', () => {
    const [c] = candidatesOf(whitespaceNormalized, 'call(a,  b)\n', ' a, b ');
    expect(c?.distortions).toEqual([{ kind: 'boundary', leading: ' ', trailing: ' ' }]);
  });

  it('several lines: whole-line windows equal once whitespace is collapsed', () => {
    const file = 'a = {\n  key:   1,\n  other:\t2,\n}\n';
    expect(spansOf(whitespaceNormalized, file, 'key: 1,\nother: 2,')).toEqual(['  key:   1,\n  other:\t2,']);
  });

  it('finds two places when two lines differ only in spacing (the loop answers ambiguous)', () => {
    expect(spansOf(whitespaceNormalized, 'x  = 1\nx = 1\n', 'x =  1')).toEqual(['x  = 1', 'x = 1']);
  });

  it('finds nothing where whitespace was added inside a word or removed between words', () => {
    expect(spansOf(whitespaceNormalized, 'total = 1\n', 'to tal = 1')).toEqual([]);
    expect(spansOf(whitespaceNormalized, 'a b\n', 'ab')).toEqual([]);
  });
});
