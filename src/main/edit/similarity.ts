/**
 * Bounded string similarity and the search budget.
 *
 * similarity(a, b) = 1 − levenshtein(a, b) / max(|a|, |b|) (fastest-levenshtein, Myers' bit-parallel algorithm).
 * Before paying for a distance we use its free lower bound |len(a) − len(b)|: when even that bound puts the pair
 * below the caller's floor, the bound is returned and no distance is computed. Every distance is charged to a
 * Budget (cost ≈ ⌈min/32⌉ · max word operations); once spent, the budget is exhausted and the caller must stop
 * and report `search_budget` rather than guess from half a search.
 */
import { distance } from 'fastest-levenshtein';

/** Default work allowance of one replace() call, in Myers word operations (≈ tens of ms on a busy laptop). */
export const DEFAULT_BUDGET = 40_000_000;

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
  if (!budget.spend(Math.ceil((min + 1) / 32) * max)) return 0;
  return 1 - distance(a, b) / max;
}
