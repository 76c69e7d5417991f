/**
 * Bounded string similarity and the search budget.
 *
 * similarity(a, b) = 1 − levenshtein(a, b) / max(|a|, |b|) (fastest-levenshtein, Myers' bit-parallel algorithm).
 * Before paying for a distance we use its free lower bound |len(a) − len(b)|: when even that bound puts the pair
 * below the caller's floor, the bound is returned and no distance is computed. Every distance is charged to a
 * Budget (cost ≈ ⌈min/32⌉ · max word operations); once spent, the budget is exhausted and the caller must stop
 * and report `search_budget` rather than guess from half a search.
 *
 * Long lines (both ≥ 2,000 chars, e.g. minified code) first get a cheap, rigorous LOWER bound: both are cut into
 * tokens (words, whitespace runs, single punctuation marks), each distinct token becomes one character, and the
 * token-level distance D is computed (hundreds of times cheaper). Every token edit costs at most the length of
 * the longer token it touches, so the character distance is at most the sum of the D longest tokens. When that
 * bound already clears the floor it is returned; only otherwise is the full character distance paid.
 */
import { distance } from 'fastest-levenshtein';

/** Default work allowance of one replace() call, in Myers word operations and line visits (≈ 100 ms at worst). */
export const DEFAULT_BUDGET = 10_000_000;

/** What visiting one file line costs in budget units (a line visit is dearer than one Myers word operation). */
export const LINE_VISIT = 5;

/** A work allowance shared by every rung of one search. */
export class Budget {
  private left: number;
  exhausted = false;

  constructor(units: number = DEFAULT_BUDGET) {
    this.left = units;
  }

  /** Charge `units`; returns false (and marks the budget exhausted) when they cannot be afforded. */
  spend(units: number): boolean {
    if (this.exhausted) return false;
    this.left -= units;
    if (this.left < 0) this.exhausted = true;
    return !this.exhausted;
  }
}

/**
 * Similarity of two strings in [0, 1]. When the length difference alone proves the similarity is below `floor`,
 * that upper bound is returned without computing a distance. When the budget cannot afford the distance, 0 is
 * returned and `budget.exhausted` is set: callers check it before trusting the answer.
 */
export function similarity(a: string, b: string, floor: number, budget: Budget): number {
  if (a === b) return 1;
  const max = Math.max(a.length, b.length);
  if (max === 0) return 1;
  const bound = 1 - Math.abs(a.length - b.length) / max;
  if (bound < floor) return bound;
  const min = Math.min(a.length, b.length);
  if (min >= LONG_LINE) {
    const lower = tokenLowerBound(a, b, budget);
    if (budget.exhausted) return 0;
    if (lower >= floor) return lower;
  }
  if (!budget.spend(Math.ceil((min + 1) / 32) * max)) return 0;
  return 1 - distance(a, b) / max;
}

/** Lines at least this long get the token-level lower bound first. */
const LONG_LINE = 2000;
const TOKEN = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

/** A lower bound on similarity(a, b) from the token-level distance (see module doc). */
function tokenLowerBound(a: string, b: string, budget: Budget): number {
  const ids = new Map<string, string>();
  const lengths: number[] = [];
  const encode = (s: string): string => {
    let out = '';
    for (const token of s.match(TOKEN) ?? []) {
      let id = ids.get(token);
      if (id === undefined) {
        // one UTF-16 unit per distinct token, skipping the surrogate range
        const n = ids.size + 0x100;
        id = String.fromCharCode(n < 0xd800 ? n : n + 0x800);
        ids.set(token, id);
      }
      out += id;
      lengths.push(token.length);
    }
    return out;
  };
  const ta = encode(a);
  const tb = encode(b);
  if (ids.size > 0xffff - 0x900) return 0;
  if (!budget.spend(Math.ceil((Math.min(ta.length, tb.length) + 1) / 32) * Math.max(ta.length, tb.length))) return 0;
  const edits = distance(ta, tb);
  lengths.sort((x, y) => y - x);
  let upper = 0;
  for (let k = 0; k < edits && k < lengths.length; k++) upper += lengths[k] ?? 0;
  const max = Math.max(a.length, b.length);
  return 1 - Math.min(upper, max) / max;
}
