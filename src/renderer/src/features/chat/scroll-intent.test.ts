import { describe, expect, test } from 'vitest';
import { keyDirection } from './scroll-intent';

const key = (k: string, mods: Partial<Record<'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey', boolean>> = {}) => ({
  key: k,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('keyDirection', () => {
  test('keys that scroll up and down, Space both ways', () => {
    expect(['ArrowUp', 'PageUp', 'Home'].map((k) => keyDirection(key(k)))).toEqual([-1, -1, -1]);
    expect(['ArrowDown', 'PageDown', 'End'].map((k) => keyDirection(key(k)))).toEqual([1, 1, 1]);
    expect(keyDirection(key(' '))).toBe(1);
    expect(keyDirection(key(' ', { shiftKey: true }))).toBe(-1);
  });

  test('other keys and modifier-held arrows (shortcuts) do not scroll', () => {
    expect(keyDirection(key('a'))).toBe(0);
    expect(keyDirection(key('Enter'))).toBe(0);
    expect(keyDirection(key('ArrowUp', { altKey: true }))).toBe(0);
    expect(keyDirection(key('End', { ctrlKey: true }))).toBe(0);
    expect(keyDirection(key('PageDown', { metaKey: true }))).toBe(0);
  });
});
