/**
 * Line diff as change regions (jsdiff's Myers `diffArrays` over terminator-inclusive lines).
 *
 * A region replaces a[aStart, aEnd) by b[bStart, bEnd) (0-based, half-open); an insertion has aStart = aEnd, a
 * deletion bStart = bEnd. Regions are sorted and separated by at least one equal line (adjacent removed/added runs
 * are merged), which is exactly the granularity of a zero-context unified hunk.
 *
 * Common prefix and suffix are cut first (cheap, and most agent edits are small); the middle is diffed with an
 * edit budget so a file rewritten wholesale costs O(n) instead of Myers' O(n·d): over budget, the middle becomes
 * one region. That is still a correct diff, only a coarser one.
 */
import { diffArrays } from 'diff';

export interface Region {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** Edit budget of one diff (lines inserted + removed) before the middle is treated as one region. */
export const MAX_EDIT_LENGTH = 20_000;

/** The change regions turning `a` into `b` (see module doc). Empty when equal. */
export function lineRegions(a: readonly string[], b: readonly string[]): Region[] {
  let pre = 0;
  const minLen = Math.min(a.length, b.length);
  while (pre < minLen && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < minLen - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length === 0 && bm.length === 0) return [];
  if (am.length === 0 || bm.length === 0)
    return [{ aStart: pre, aEnd: pre + am.length, bStart: pre, bEnd: pre + bm.length }];
  const parts = diffArrays(am, bm, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return [{ aStart: pre, aEnd: pre + am.length, bStart: pre, bEnd: pre + bm.length }];
  const out: Region[] = [];
  let ai = pre;
  let bi = pre;
  let open: Region | null = null;
  for (const p of parts) {
    if (!p.added && !p.removed) {
      if (open) out.push(open);
      open = null;
      ai += p.count;
      bi += p.count;
      continue;
    }
    open ??= { aStart: ai, aEnd: ai, bStart: bi, bEnd: bi };
    if (p.removed) {
      ai += p.count;
      open.aEnd = ai;
    } else {
      bi += p.count;
      open.bEnd = bi;
    }
  }
  if (open) out.push(open);
  return out;
}
