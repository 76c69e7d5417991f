import { describe, expect, it } from 'vitest';
import { commitDiff, MAX_PATCH_CHARS } from './file-diff';

describe('commitDiff', () => {
  it('gives a unified patch with exact counts', () => {
    const d = commitDiff('src/a.txt', 'a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(d).toEqual({
      file: 'src/a.txt',
      additions: 2,
      deletions: 1,
      patch:
        '===================================================================\n--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n',
    });
  });

  it('a new file counts every line as added', () => {
    expect(commitDiff('n.txt', '', 'x\ny\n')).toMatchObject({ additions: 2, deletions: 0 });
  });

  it(`drops a patch over ${MAX_PATCH_CHARS} characters but keeps the counts`, () => {
    const before = Array.from({ length: 1_000 }, (_, i) => `line ${i} ${'x'.repeat(300)}`).join('\n') + '\n';
    const after = before.replace(/x{300}/g, 'y'.repeat(300));
    const d = commitDiff('big.txt', before, after);
    expect(d.patch).toBeUndefined();
    expect(d.additions).toBe(1_000);
    expect(d.deletions).toBe(1_000);
  });

  it('past its work limit the diff reports the upper-bound counts and no patch, instead of stalling', () => {
    const before = Array.from({ length: 400 }, (_, i) => `a${i}`).join('\n') + '\n';
    const after = Array.from({ length: 300 }, (_, i) => `b${i}`).join('\n') + '\n';
    expect(commitDiff('r.txt', before, after, { maxEditLength: 50 })).toEqual({
      file: 'r.txt',
      additions: 300,
      deletions: 400,
    });
  });
});
