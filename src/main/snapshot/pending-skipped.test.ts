/**
 * walk-guide.ts `untouched`: an entry of a pending folder is walked whole, so the left-out and skipped files
 * directly in it are found afresh — the last walk's list must not carry them too (a hostile review: `lastSkipped`
 * named a too-large file twice under a pending root, and the list grew with every such track). Files in folders the
 * walk does not list again are carried.
 */
import { describe, expect, it } from 'vitest';
import { guideFor, untouched } from './walk-guide';

describe('untouched under a pending folder', () => {
  it('drops what the entries of a pending folder will find again, keeps the rest', () => {
    const known = (): boolean => true;
    const rootPending = guideFor(new Set(), new Set(['']));
    expect(rootPending).toBeDefined();
    if (!rootPending) return;
    expect(untouched(['n1/big', 'n1/deep/x.log', 'top.log', 'ign/'], rootPending, known)).toEqual(['n1/deep/x.log']);
    const deepPending = guideFor(new Set(), new Set(['a/b']));
    if (!deepPending) throw new Error('no guide');
    expect(untouched(['a/b/c/big', 'a/b/big', 'a/x.log', 'a/b/c/d/y.log'], deepPending, known)).toEqual([
      'a/x.log',
      'a/b/c/d/y.log',
    ]);
  });
});
