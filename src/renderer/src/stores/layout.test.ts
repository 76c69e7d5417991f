/** The layout rules by window width, pane sizes within bounds, and the stored place after a reload. */
import { describe, expect, it } from 'vitest';
import { clampSizes, defaultSizes, layoutMode, MIN_MAIN, readSizes } from './layout';
import { parsePlace } from './place';

describe('layout', () => {
  it('wide from 1000 px, tabs down to 600, one column below', () => {
    expect([1440, 1000, 999, 800, 600, 599, 390].map(layoutMode)).toEqual([
      'wide',
      'wide',
      'tabs',
      'tabs',
      'tabs',
      'phone',
      'phone',
    ]);
  });

  it('sizes stay within bounds and always leave the chat its minimum', () => {
    expect(defaultSizes(1440)).toEqual({ sidebar: 240, review: 720 });
    expect(clampSizes({ sidebar: 10, review: 5000 }, 1440)).toEqual({
      sidebar: 160,
      review: 1440 - 160 - MIN_MAIN - 12,
    });
    expect(clampSizes({ sidebar: 900, review: 10 }, 1024)).toEqual({ sidebar: 420, review: 232 });
    for (const width of [1000, 1024, 1280, 1440, 2560])
      for (const sidebar of [0, 200, 999])
        for (const review of [0, 400, 9999]) {
          const s = clampSizes({ sidebar, review }, width);
          expect(width - s.sidebar - s.review - 12).toBeGreaterThanOrEqual(MIN_MAIN);
        }
  });

  it('stored sizes and places that do not parse are ignored', () => {
    expect(readSizes('{"sidebar":300,"review":500}')).toEqual({ sidebar: 300, review: 500 });
    expect([readSizes('nope'), readSizes('{"sidebar":-1,"review":2}'), readSizes(null)]).toEqual([null, null, null]);
    expect(
      parsePlace('{"root":"/p","sessionId":"ses_1","rows":{"ses_1":{"index":4,"atBottom":false},"x":{}}}'),
    ).toEqual({
      root: '/p',
      sessionId: 'ses_1',
      rows: { ses_1: { index: 4, atBottom: false } },
    });
    expect(parsePlace('{')).toBe(null);
  });
});
