/**
 * Binary search over ascending lists of numbers (line starts, CRLF offsets, occurrence lists, fold clusters): the
 * one implementation the engines share. O(log n); `xs` must be sorted ascending (not checked).
 */

/** Index of the first entry of `xs` that is ≥ `value` — equally, how many entries are < `value`. */
export function lowerBound(xs: readonly number[], value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first entry of `xs` that is > `value` — equally, how many entries are ≤ `value`. */
export function upperBound(xs: readonly number[], value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
