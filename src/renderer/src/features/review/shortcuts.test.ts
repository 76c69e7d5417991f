import { describe, expect, it } from 'vitest';
import { handleReviewKey } from './shortcuts';

describe('review shortcuts', () => {
  const calls: string[] = [];
  const s = {
    decideHunk: async (a: 'accept' | 'reject') => void calls.push(`hunk:${a}`),
    decideAll: async (a: 'accept' | 'reject') => void calls.push(`all:${a}`),
    nextHunk: (d: 1 | -1) => void calls.push(`next:${d}`),
  };
  const key = (
    k: string,
    mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
  ): boolean => handleReviewKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods }, s);

  it('maps Ctrl/Cmd+Y, Ctrl/Cmd+N, Alt+↓/↑, Ctrl/Cmd+Enter, Ctrl/Cmd+Backspace and ignores everything else', () => {
    expect([
      key('y', { ctrlKey: true }),
      key('N', { metaKey: true }),
      key('ArrowDown', { altKey: true }),
      key('ArrowUp', { altKey: true }),
    ]).toEqual([true, true, true, true]);
    expect([key('Enter', { metaKey: true }), key('Backspace', { ctrlKey: true })]).toEqual([true, true]);
    expect([key('y'), key('n'), key('ArrowDown'), key('y', { ctrlKey: true, shiftKey: true }), key('Enter')]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(calls).toEqual(['hunk:accept', 'hunk:reject', 'next:1', 'next:-1', 'all:accept', 'all:reject']);
  });
});
