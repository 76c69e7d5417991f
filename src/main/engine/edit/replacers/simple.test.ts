/** Rung 1, simple: oldString byte for byte — every occurrence, and nothing that is not byte-identical. */
import { describe, expect, it } from 'vitest';
import { candidatesOf, spansOf } from './rung-test-kit';
import { simple } from './simple';

describe('rung simple', () => {
  it('finds every exact occurrence, overlapping ones too (the uniqueness gate must see every place)', () => {
    expect(candidatesOf(simple, 'aaa', 'aa').map((c) => [c.start, c.end])).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(spansOf(simple, 'x = 1\ny = 2\nx = 1\n', 'x = 1')).toEqual(['x = 1', 'x = 1']);
  });

  it('finds a piece of a line and a run of lines alike, with no distortion to undo', () => {
    const [c] = candidatesOf(simple, 'let total = a + b;\nreturn total;\n', 'a + b;\nreturn');
    expect(c).toMatchObject({ start: 12, end: 25, rung: 'simple', lineAligned: false, distortions: [] });
  });

  it('finds nothing that differs by a byte: indentation, trailing space, a curly quote, a case', () => {
    expect(spansOf(simple, '  foo()\n', '    foo()')).toEqual([]);
    expect(spansOf(simple, 'foo()\n', 'foo() ')).toEqual([]);
    expect(spansOf(simple, 'say \u2018x\u2019\n', "say 'x'")).toEqual([]);
    expect(spansOf(simple, 'Foo\n', 'foo')).toEqual([]);
  });

  it('finds nothing for an empty oldString', () => {
    expect(spansOf(simple, 'abc', '')).toEqual([]);
  });
});
