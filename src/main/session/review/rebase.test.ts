import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineHunks } from './hunks';
import { splitLines } from './lines';
import { rebaseOnto, type PlannedEdit } from './rebase';

const rejectEdits = (hs: ReturnType<typeof lineHunks>): PlannedEdit[] =>
  hs.map((h) => ({ hunkId: h.id, start: h.bStart, end: h.bEnd, replacement: h.oldLines }));

const lineArb = fc.constantFrom('a\n', 'b\n', 'c\n', 'd\r\n', 'e', '\n', 'ü\n');
const textArb = fc.array(lineArb, { maxLength: 30 }).map((ls) => ls.join(''));

describe('rebaseOnto (reverse-apply onto the file now)', () => {
  it('rejecting every hunk of a step on the untouched file gives back the before bytes (B39)', () => {
    fc.assert(
      fc.property(textArb, textArb, (x, a) => {
        const hs = lineHunks('s', 'f', splitLines(x), splitLines(a));
        const r = rebaseOnto(splitLines(a), splitLines(a), rejectEdits(hs));
        expect(r.ok && r.lines.join('')).toBe(x);
      }),
      { numRuns: 400 },
    );
  });

  it('rejecting hunks one at a time, in any order, also ends at the before bytes', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.integer({ min: 0, max: 1000 }), (x, a, seed) => {
        const A = splitLines(a);
        const hs = lineHunks('s', 'f', splitLines(x), A);
        const order = hs.map((h, i) => ({ h, k: (i * 7919 + seed) % 101 })).sort((p, q) => p.k - q.k).map((p) => p.h);
        let now = A;
        for (const h of order) {
          const r = rebaseOnto(A, now, rejectEdits([h]));
          if (!r.ok) throw new Error('unexpected conflict');
          now = r.lines;
        }
        expect(now.join('')).toBe(x);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a later change to other lines and undoes only the chosen hunk', () => {
    const x = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
    const a = 'one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\n'; // step: two hunks
    const c = 'zero\none\nTWO\nthree\nfour\nFIVE\nsix\nSEVEN\n'; // later: line inserted on top, five changed
    const hs = lineHunks('s', 'f', splitLines(x), splitLines(a));
    expect(hs).toHaveLength(2);
    const r = rebaseOnto(splitLines(a), splitLines(c), rejectEdits([hs[0]!]));
    expect(r).toEqual({ ok: true, lines: splitLines('zero\none\ntwo\nthree\nfour\nFIVE\nsix\nSEVEN\n') });
  });

  it('answers a conflict with the lines of the file now when the hunk lines changed, applying nothing', () => {
    const x = 'a\nb\nc\nd\ne\n';
    const a = 'a\nB\nc\nd\nE\n';
    const c = 'a\nBB\nc\nd\nE\n';
    const hs = lineHunks('s', 'f', splitLines(x), splitLines(a));
    const r = rebaseOnto(splitLines(a), splitLines(c), rejectEdits(hs));
    expect(r).toEqual({ ok: false, conflicts: [{ hunkId: hs[0]!.id, fromLine: 2, toLine: 2 }] });
  });

  it('treats an insertion inside a hunk and a change at a deletion point as conflicts', () => {
    const x = 'a\nb\nc\nd\n';
    const a = 'a\nX\nY\nd\n'; // b,c → X,Y
    const hs = lineHunks('s', 'f', splitLines(x), splitLines(a));
    const inside = rebaseOnto(splitLines(a), splitLines('a\nX\nnew\nY\nd\n'), rejectEdits(hs));
    expect(inside.ok).toBe(false);
    const del = lineHunks('s', 'f', splitLines('a\nb\nc\n'), splitLines('a\nc\n')); // b deleted
    const atPoint = rebaseOnto(splitLines('a\nc\n'), splitLines('a\nnew\nc\n'), rejectEdits(del));
    expect(atPoint).toEqual({ ok: false, conflicts: [{ hunkId: del[0]!.id, fromLine: 2, toLine: 2 }] });
  });

  it('keeps CRLF and a missing final newline byte for byte', () => {
    const x = 'l1\r\nl2\r\nl3';
    const a = 'l1\r\nL2\r\nl3\r\nl4';
    const hs = lineHunks('s', 'f', splitLines(x), splitLines(a));
    const r = rebaseOnto(splitLines(a), splitLines(a), rejectEdits(hs));
    expect(r.ok && r.lines.join('')).toBe(x);
  });
});

describe('lineHunks ids', () => {
  it('are stable for the same scope and content, and differ across scopes and repeated identical hunks', () => {
    const x = splitLines('k\nv\nk\nv\n');
    const a = splitLines('k\nV\nk\nV\n');
    const one = lineHunks('t1..t2', 'f', x, a).map((h) => h.id);
    expect(lineHunks('t1..t2', 'f', x, a).map((h) => h.id)).toEqual(one);
    expect(new Set(one).size).toBe(2);
    expect(lineHunks('t1..t3', 'f', x, a).map((h) => h.id)).not.toEqual(one);
  });
});
