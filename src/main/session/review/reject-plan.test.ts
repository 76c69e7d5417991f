import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyseFile } from './file-analysis';
import { planReject } from './reject-plan';

const lineArb = fc.constantFrom('a\n', 'b\n', 'c\n', 'd\r\n', 'e', '\n', 'ü\n');
const textArb = fc.array(lineArb, { maxLength: 30 }).map((ls) => ls.join(''));

describe('planReject', () => {
  it('rejecting hunks one at a time, in any order, ends at the before bytes (B39 in pieces)', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.integer({ min: 0, max: 1000 }), (x, a, seed) => {
        const analysis = analyseFile('s', { path: 'f', status: 'modified' }, Buffer.from(x), Buffer.from(a));
        if (analysis.kind !== 'lines') return;
        const order = analysis.hunks
          .map((h, i) => ({ h, k: (i * 7919 + seed) % 101 }))
          .sort((p, q) => p.k - q.k)
          .map((p) => p.h);
        let now: Buffer = Buffer.from(a);
        const rejected = new Set<string>();
        for (const h of order) {
          const p = planReject(analysis, new Set([h.id]), () => now, rejected);
          if (!p.ok) throw new Error(`unexpected conflict ${JSON.stringify(p.conflicts)}`);
          now = p.writes[0]?.bytes ?? now;
          rejected.add(h.id);
        }
        expect(now.toString('latin1')).toBe(Buffer.from(x).toString('latin1'));
      }),
      { numRuns: 2000 },
    );
  });

  it('plans nothing for hunks it was not asked about, and conflicts when the file is gone', () => {
    const analysis = analyseFile(
      's',
      { path: 'f', status: 'modified' },
      Buffer.from('1\n2\n'),
      Buffer.from('1\nTWO\n'),
    );
    expect(planReject(analysis, new Set(['other']), () => Buffer.from('1\nTWO\n'))).toEqual({
      ok: true,
      writes: [],
      hunkIds: [],
    });
    const gone = planReject(analysis, new Set([analysis.hunks[0]!.id]), () => null);
    expect(!gone.ok && gone.conflicts.map((c) => c.reason)).toEqual(['file_missing']);
  });
});
