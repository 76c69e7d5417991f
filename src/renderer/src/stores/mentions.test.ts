/** @-mentions: which words attach which files and lines, completing a mention, and the transcript's chips. */
import { describe, expect, it } from 'vitest';
import { completeMention, mentionQuery, mentionsOf, splitAttached } from './mentions';

const files = new Set(['src/a.ts', 'README.md']);

describe('mentions', () => {
  it('attaches listed files and ranges; an e-mail address or an unknown path stays text', () => {
    expect(mentionsOf('see @src/a.ts:3-9 and @README.md, mail me@example.com, @nope.ts @src/a.ts:3-9', files)).toEqual([
      { path: 'src/a.ts', from: 3, to: 9 },
    ]);
    expect(mentionsOf('@README.md\n@src/a.ts:4', files)).toEqual([
      { path: 'README.md' },
      { path: 'src/a.ts', from: 4, to: 4 },
    ]);
  });

  it('the mention being typed, and completing it', () => {
    expect(mentionQuery('explain @sr', 11)).toBe('sr');
    expect(mentionQuery('explain @src/a.ts done', 22)).toBe(null);
    expect(completeMention('explain @sr please', 11, 'src/a.ts')).toEqual({
      text: 'explain @src/a.ts  please',
      caret: 18,
    });
  });

  it('splits a stored message into words and attached-file chips', () => {
    const text = 'Explain @src/a.ts:2-3\n\n<attached-file path="src/a.ts" lines="2-3">\nb\nc\n</attached-file>';
    expect(splitAttached(text)).toEqual([
      { kind: 'text', text: 'Explain @src/a.ts:2-3' },
      { kind: 'file', path: 'src/a.ts', lines: '2-3' },
    ]);
  });
});
