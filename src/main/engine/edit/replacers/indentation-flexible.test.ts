/** Rung 5, indentation-flexible: whole lines equal once the common indentation is removed from both sides. */
import { describe, expect, it } from 'vitest';
import { indentationFlexible } from './indentation-flexible';
import { spansOf } from './rung-test-kit';

describe('rung indentation-flexible', () => {
  it('finds a block shifted as a whole (relative indentation kept)', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    expect(spansOf(indentationFlexible, file, 'def f(self):\n    return 1')).toEqual([
      '    def f(self):\n        return 1',
    ]);
  });

  it('finds nothing when the relative indentation differs (line-trimmed, earlier on the ladder, would)', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    expect(spansOf(indentationFlexible, file, 'def f(self):\nreturn 1')).toEqual([]);
  });

  it('finds nothing for a blank oldString', () => {
    expect(spansOf(indentationFlexible, 'a\n\n  \nb\n', '\n  ')).toEqual([]);
  });
});
