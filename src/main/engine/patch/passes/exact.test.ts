/** Pass 1, exact: the line as it is — tried first, so a byte-exact place wins over any a looser pass would find. */
import { describe, expect, it } from 'vitest';
import { parsePatch } from '../parse';
import { updateText } from '../plan';
import type { UpdateOperation } from '../types';
import { exact } from './exact';
import { where } from './pass-test-kit';

describe('pass exact', () => {
  it('matches a line only when it is the same string', () => {
    expect(exact.key('  x = 1 ')).toBe('  x = 1 ');
    expect(where(['a', 'b', 'c'], ['b', 'c'])).toBe('exact@1');
  });

  it('does not match a line that differs by whitespace or typography (a later pass decides)', () => {
    expect(where(['x = 1  '], ['x = 1'])).toBe('trim_end@0');
    expect(where(['say \u201Chi\u201D'], ['say "hi"'])).toBe('unicode@0');
  });

  it('one exact place is found even where a looser pass would see two (ambiguity is judged at the first pass that matches)', () => {
    expect(where(['key: 1', ' key: 1'], ['key: 1'])).toBe('exact@0');
    const parsed = parsePatch(
      ['*** Begin Patch', '*** Update File: f', '@@', '-key: 1', '+key: 2', '*** End Patch'].join('\n'),
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(updateText(parsed.value.operations[0] as UpdateOperation, 'key: 1\n key: 1\n')).toEqual({
      ok: true,
      value: 'key: 2\n key: 1\n',
    });
  });

  it('two exact places are ambiguous: a looser pass is never asked to break the tie', () => {
    expect(where(['a', 'x', 'a'], ['a'])).toBe('ambiguous:exact@0,2');
  });
});
