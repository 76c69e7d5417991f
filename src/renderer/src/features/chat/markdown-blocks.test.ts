import { describe, expect, test } from 'vitest';
import { markdownBlocks } from './markdown-blocks';

describe('markdownBlocks', () => {
  test('splits paragraphs at blank lines', () => {
    expect(markdownBlocks('one\ntwo\n\nthree\n\n\nfour')).toEqual(['one\ntwo', 'three', 'four']);
  });

  test('keeps a fenced code block with blank lines whole, and a still-open fence (streaming) too', () => {
    const text = 'before\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter';
    expect(markdownBlocks(text)).toEqual(['before', '```ts\nconst a = 1;\n\nconst b = 2;\n```', 'after']);
    expect(markdownBlocks('x\n\n~~~\ncode\n\nmore')).toEqual(['x', '~~~\ncode\n\nmore']);
  });

  test('a shorter or different fence does not close the open one', () => {
    expect(markdownBlocks('````\n```\n\ninside\n````\n\nout')).toEqual(['````\n```\n\ninside\n````', 'out']);
  });
});
