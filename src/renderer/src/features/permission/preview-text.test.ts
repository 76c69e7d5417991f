/**
 * The permission preview's two texts from a unified patch: a new file is only additions (no phantom removed empty
 * line 1, no extra "+" line), an edit keeps its context on both sides, and "\ No newline at end of file" is kept.
 */
import { describe, expect, it } from 'vitest';
import { structuredPatch, formatPatch } from 'diff';
import { previewTexts, wholeFile } from './preview-text';

const patchOf = (before: string, after: string): string =>
  formatPatch(structuredPatch('a/f.txt', 'b/f.txt', before, after, undefined, undefined, { context: 3 }));

describe('previewTexts', () => {
  it('a new file: all its 7 lines added, no removed empty line 1 and no 8th "+" line', () => {
    const file = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'].join('\n') + '\n';
    const texts = previewTexts(patchOf('', file));
    expect(texts).toEqual({ before: '', after: file });
    const whole = wholeFile(texts);
    expect(whole?.kind).toBe('added');
    expect(whole?.text.split('\n')).toHaveLength(7);
    expect(wholeFile(previewTexts(patchOf(file, '')))).toEqual({ kind: 'removed', text: file.slice(0, -1) });
    expect(wholeFile(previewTexts(patchOf('a\n', 'b\n')))).toBeNull();
  });

  it('an edit: context on both sides, the changed line on its side, line endings as in the file', () => {
    const { before, after } = previewTexts(patchOf('a\nb\nc\n', 'a\nB\nc\n'));
    expect(before).toBe('a\nb\nc\n');
    expect(after).toBe('a\nB\nc\n');
  });

  it('keeps "no newline at end of file" on the side that has none', () => {
    expect(previewTexts(patchOf('a\nb', 'a\nb\n'))).toEqual({ before: 'a\nb', after: 'a\nb\n' });
    expect(previewTexts(patchOf('x', 'y'))).toEqual({ before: 'x', after: 'y' });
  });

  it('marks the gap between hunks; an absent patch is two empty texts', () => {
    const long = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const changed = long.map((l, i) => (i === 1 || i === 18 ? l.toUpperCase() : l));
    const { before } = previewTexts(patchOf(long.join('\n') + '\n', changed.join('\n') + '\n'));
    expect(before.split('\n')).toContain('⋯');
    expect(previewTexts(undefined)).toEqual({ before: '', after: '' });
  });
});
