/**
 * The review slice's diffs already loaded, by view key `session|point|against` (one cache per store, held in the
 * slice's closure). A diff of two snapshot trees never changes except for its hunks' states, so a decision patches
 * the states in place of reloading; a diff against "now" compares with the work tree, so it is dropped whenever the
 * work tree was written. Oldest first out past CACHE_MAX.
 */
import type { HunkStateChange, ReviewDiff } from '../../../shared/review-schemas';
import { applyHunkStates } from '../../../shared/review-change';

/** Diffs kept (each can hold a 10,000-line file twice). */
export const CACHE_MAX = 40;

export class DiffCache {
  private readonly diffs = new Map<string, ReviewDiff>();
  /**
   * Counts `clear()` calls. A load started before a clear must not put its answer after it: the clear means
   * "what was asked before may be stale" (a pushed change), so the load compares the generation it started in.
   */
  generation = 0;

  get(key: string): ReviewDiff | undefined {
    return this.diffs.get(key);
  }

  put(key: string, diff: ReviewDiff): void {
    this.diffs.delete(key);
    this.diffs.set(key, diff);
    if (this.diffs.size > CACHE_MAX) this.diffs.delete(this.diffs.keys().next().value as string);
  }

  clear(): void {
    this.diffs.clear();
    this.generation += 1;
  }

  /** Puts the hunks' new states into every cached diff that holds them (ids are unique to their diff's scope). */
  patch(changes: readonly HunkStateChange[]): void {
    if (changes.length === 0) return;
    for (const [key, diff] of this.diffs) {
      const next = applyHunkStates(diff, changes);
      if (next !== diff) this.diffs.set(key, next);
    }
  }

  /** Drops every diff against "now" except `keep`'s: the work tree they compare with was written. */
  dropNow(keep: string | null): void {
    for (const key of [...this.diffs.keys()]) if (key.endsWith('|now') && key !== keep) this.diffs.delete(key);
  }
}
