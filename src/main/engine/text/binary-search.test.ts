/** lowerBound and upperBound against a linear scan, and at the edges. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './binary-search';

describe('binary search', () => {
  it('finds the first entry ≥ (lowerBound) and > (upperBound) a value, duplicates included', () => {
    const xs = [1, 3, 3, 3, 7];
    expect([0, 1, 2, 3, 4, 7, 8].map((v) => lowerBound(xs, v))).toEqual([0, 0, 1, 1, 4, 4, 5]);
    expect([0, 1, 2, 3, 4, 7, 8].map((v) => upperBound(xs, v))).toEqual([0, 1, 1, 4, 4, 5, 5]);
    expect([lowerBound([], 5), upperBound([], 5)]).toEqual([0, 0]);
  });

  it('property: equals counting the entries below (lowerBound) or at most (upperBound) the value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (raw, v) => {
        const xs = [...raw].sort((a, b) => a - b);
        expect(lowerBound(xs, v)).toBe(xs.filter((x) => x < v).length);
        expect(upperBound(xs, v)).toBe(xs.filter((x) => x <= v).length);
      }),
      { numRuns: 500 },
    );
  });
});
