/**
 * Rung 9, multi-occurrence: every exact occurrence — opencode's replaceAll rung. The simple rung already yields
 * every occurrence and the loop serves replaceAll for every rung, so this rung finds exactly what simple finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multiOccurrence } from './multi-occurrence';
import { candidatesOf, spansOf } from './rung-test-kit';
import { simple } from './simple';

describe('rung multi-occurrence', () => {
  it('finds every exact occurrence', () => {
    expect(spansOf(multiOccurrence, 'n + count + n\n', 'n')).toEqual(['n', 'n', 'n']);
  });

  it('property: finds the same places as the simple rung, so it never lands anything simple did not offer', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n') }),
        fc.string({ unit: fc.constantFrom('a', 'b', ' ') }),
        (content, old) => {
          const places = (r: typeof simple) => candidatesOf(r, content, old).map((c) => [c.start, c.end]);
          expect(places(multiOccurrence)).toEqual(places(simple));
        },
      ),
      { numRuns: 300 },
    );
  });
});
