/**
 * Folding a ReviewChange (the answer of `review.decide` / `review.undo`, review-schemas.ts) into what a view holds,
 * so the view redraws without asking main again. Pure: inputs are never changed; what the change does not touch
 * keeps its identity (a diff none of whose hunks moved is returned as is, untouched files stay the same objects),
 * so caches and memoised components see exactly what changed. Used by the renderer's review slice, and by main's
 * tests to prove the fold gives what a fresh `review.diff` / `review.timeline` would.
 */
import type { HunkStateChange, ReviewDiff, ReviewHunk, TimelineEntry } from './review-schemas';

function withState(h: ReviewHunk, c: HunkStateChange): ReviewHunk {
  const { decisionId: _old, ...rest } = h;
  return { ...rest, state: c.state, ...(c.decisionId !== undefined ? { decisionId: c.decisionId } : {}) };
}

/**
 * `diff` with the listed hunks in their new states (matched by id within the file of the same path; hunk ids
 * carry their diff's scope, so a change made in another scope touches nothing here). Returns `diff` itself when
 * none of its hunks is listed.
 */
export function applyHunkStates(diff: ReviewDiff, changes: readonly HunkStateChange[]): ReviewDiff {
  const byPath = new Map<string, Map<string, HunkStateChange>>();
  for (const c of changes) {
    let m = byPath.get(c.path);
    if (!m) byPath.set(c.path, (m = new Map()));
    m.set(c.id, c);
  }
  let touched = false;
  const files = diff.files.map((f) => {
    const m = byPath.get(f.path);
    if (!m || !f.hunks.some((h) => m.has(h.id))) return f;
    touched = true;
    return { ...f, hunks: f.hunks.map((h) => (m.has(h.id) ? withState(h, m.get(h.id) as HunkStateChange) : h)) };
  });
  return touched ? { ...diff, files } : diff;
}

/**
 * The timeline with `entries` put in (each replaces the entry of the same id, or is added), ordered by index.
 * Null when the result is not one entry per index 0…n−1 — the view's timeline was not the one main changed (a step
 * landed meanwhile), and the caller reloads it whole.
 */
export function applyTimeline(
  timeline: readonly TimelineEntry[],
  entries: readonly TimelineEntry[],
): TimelineEntry[] | null {
  if (entries.length === 0) return timeline as TimelineEntry[];
  const byId = new Map(timeline.map((e) => [e.id, e]));
  for (const e of entries) byId.set(e.id, e);
  const next = [...byId.values()].sort((a, b) => a.index - b.index);
  return next.every((e, i) => e.index === i) ? next : null;
}

/**
 * True when a hunk can be decided now: pending, and not one the session's revert took off disk (`reverted`: main
 * refuses those until unrevert).
 */
export function decidable(h: ReviewHunk): boolean {
  return h.state === 'pending' && h.reverted === undefined;
}

/**
 * Decidable hunks of a diff (what the review toolbar counts as pending), or of one file of it when `path` is given.
 */
export function pendingCount(diff: ReviewDiff | null, path?: string): number {
  if (!diff) return 0;
  let n = 0;
  for (const f of diff.files) {
    if (path !== undefined && f.path !== path) continue;
    for (const h of f.hunks) if (decidable(h)) n++;
  }
  return n;
}
