/**
 * Review slice (DESIGN §8 per-hunk review; §10 components render, stores decide): the open session's timeline, the
 * selected point, what it is compared against, its diff, the focused file and hunk, and the decisions.
 *
 * - Scrubbing is cheap by construction: selecting only moves an index (one render of the strip); the point's diff
 *   loads after the pointer rests (SETTLE_MS) and is kept per (point, against) in the slice's DiffCache, so dragging
 *   across 500 steps never waits on main.
 * - A decision is one call: `review.decide` / `review.undo` answer what they changed (ReviewChange), and the slice
 *   folds it into the timeline, the shown diff and every cached diff (src/shared/review-change.ts); the view then
 *   moves to the next pending hunk. Only a timeline that no longer fits the answer (a step landed meanwhile) is
 *   reloaded.
 * - Changes made elsewhere arrive as pushed events (stores/events.ts routes them to `reviewChanged`): one reload of
 *   timeline and diff per burst (REFRESH_MS).
 * Nothing here moves keyboard focus: focus stays where the user last put it (fixtures/bugs/README.md B41).
 * Revert / unrevert / undo / redo of whole turns are the history slice's (history-slice.ts), not review's.
 */
import { call } from '../rpc';
import type { LandfallError } from '../../../shared/errors';
import { applyHunkStates, applyTimeline } from '../../../shared/review-change';
import type {
  DecideInput,
  HunkConflict,
  ReviewChange,
  ReviewDiff,
  ReviewTarget,
  TimelineEntry,
} from '../../../shared/review-schemas';
import { DiffCache } from './review-cache';
import { findHunk, hunkAt, hunkAtLine, nextPending, stepHunk, type HunkPos } from './review-nav';
import type { Against, ReviewNotice, ReviewSlice, ReviewView } from './review-types';
import type { Slice } from './types';

/** Pointer rest time before a scrubbed-to point's diff loads (ms). */
export const SETTLE_MS = 70;
/** Pushed changes arrive in bursts (a step ends with several parts): one refresh per burst, after this quiet (ms). */
export const REFRESH_MS = 150;

/** What the selected point is diffed as: its turn (the whole assistant message), or the point against something. */
function targetOf(entry: TimelineEntry, against: Against): ReviewTarget {
  if (against === 'turn' && entry.messageId) return { kind: 'turn', messageId: entry.messageId };
  return { kind: 'point', entryId: entry.id, against: against === 'turn' ? 'previous' : against };
}

function errorNotice(e: LandfallError): ReviewNotice {
  const conflicts = (e.data?.conflicts as HunkConflict[] | undefined) ?? [];
  if (e.code === 'conflict') return { kind: 'conflict', text: `${e.message} ${e.hint}`, conflicts };
  return { kind: 'error', text: `${e.message} ${e.hint}` };
}

/** The cache key of what the view selects: `session|point|against`, or null when nothing is selected. */
function keyOf(v: ReviewView): string | null {
  const e = v.timeline[v.selected];
  // the trees are part of the key: a point whose trees moved (a step still running when first shown) is a new diff
  return e && v.sessionId ? `${v.sessionId}|${e.id}|${e.from}..${e.to}|${v.against}` : null;
}

const EMPTY: ReviewView = {
  sessionId: null,
  timeline: [],
  selected: 0,
  against: 'previous',
  diff: null,
  diffKey: null,
  loading: false,
  file: 0,
  pos: null,
  sideBySide: false,
  deciding: false,
  notice: null,
};

export const createReviewSlice: Slice<ReviewSlice> = (set, get) => {
  const cache = new DiffCache();
  let settle: ReturnType<typeof setTimeout> | undefined;
  let refresh: ReturnType<typeof setTimeout> | undefined;
  const view = (): ReviewView => get().review;
  const patch = (p: Partial<ReviewView>): void => set((s) => ({ review: { ...s.review, ...p } }));

  /** Keep the focused hunk when the same diff reloads; otherwise start at the first file's first pending hunk. */
  const keepPos = (diff: ReviewDiff, key: string): Pick<ReviewView, 'pos' | 'file'> => {
    const v = view();
    if (v.diffKey === key && v.pos) {
      const id = hunkAt(v.diff, v.pos)?.id;
      const again = id ? findHunk(diff, id) : null;
      if (again) return { pos: again, file: again.file };
    }
    const pos = nextPending(diff, null) ?? stepHunk(diff, null, 1);
    return { pos, file: pos?.file ?? 0 };
  };

  const show = (diff: ReviewDiff, key: string): void =>
    patch({ diff, diffKey: key, loading: false, ...keepPos(diff, key) });

  const loadDiff = async (force = false): Promise<void> => {
    const v = view();
    const key = keyOf(v);
    const entry = v.timeline[v.selected];
    if (!v.sessionId || !key || !entry) return patch({ diff: null, diffKey: null, loading: false });
    const hit = force ? undefined : cache.get(key);
    if (hit) return show(hit, key);
    patch({ loading: true });
    const generation = cache.generation;
    const r = await call('review.diff', { sessionId: v.sessionId, target: targetOf(entry, v.against) });
    if (keyOf(view()) !== key) return; // the user scrubbed on meanwhile
    // a pushed change cleared the cache meanwhile: this answer may predate it, and the refresh loads its own
    if (cache.generation !== generation) return;
    if (!r.ok) return patch({ loading: false, notice: errorNotice(r.error) });
    cache.put(key, r.value);
    show(r.value, key);
  };

  /** Shows the selected point's diff now when cached, else once the pointer rests. */
  const schedule = (): void => {
    clearTimeout(settle);
    const key = keyOf(view());
    const hit = key ? cache.get(key) : undefined;
    if (hit && key) return show(hit, key);
    // never leave another point's hunks on screen: a Keep there would name hunks the selected point does not have
    if (view().diffKey !== key) patch({ diff: null, diffKey: null, loading: true });
    settle = setTimeout(() => void loadDiff(), SETTLE_MS);
  };

  /** Takes a whole timeline, keeping the selected point (by id) or falling back to the last step. */
  const takeTimeline = (timeline: TimelineEntry[]): void => {
    const v = view();
    const prev = v.timeline[v.selected]?.id;
    const at = prev ? timeline.findIndex((e) => e.id === prev) : -1;
    const steps = timeline.filter((e) => e.kind === 'step');
    const fallback = steps.length > 0 ? (steps[steps.length - 1] as TimelineEntry).index : 0;
    patch({ timeline, selected: at >= 0 ? at : fallback });
    schedule();
  };

  const reloadTimeline = async (): Promise<void> => {
    const sessionId = view().sessionId;
    if (!sessionId) return;
    const r = await call('review.timeline', { sessionId });
    if (view().sessionId !== sessionId) return;
    if (!r.ok) return patch({ notice: errorNotice(r.error), loading: false });
    takeTimeline(r.value);
  };

  /**
   * Folds a decision's or an undo's answer into the view, the cache and the timeline. `key` is the view the call
   * was made for, `from` the hunk focused then: the view moves on to the next pending hunk after it.
   */
  const fold = async (c: ReviewChange, key: string | null, from: HunkPos | null): Promise<void> => {
    if (c.decision.written.length + c.decision.deleted.length > 0) cache.dropNow(key);
    cache.patch(c.hunks);
    if (key && c.diff) cache.put(key, c.diff);
    const v = view();
    const next: Partial<ReviewView> = {};
    const timeline = applyTimeline(v.timeline, c.timeline);
    if (timeline && timeline !== v.timeline) {
      const at = timeline.findIndex((e) => e.id === v.timeline[v.selected]?.id);
      Object.assign(next, { timeline, selected: at >= 0 ? at : v.selected });
    }
    if (key && keyOf(v) === key) {
      const diff = cache.get(key) ?? c.diff ?? (v.diff ? applyHunkStates(v.diff, c.hunks) : null);
      const pos = nextPending(diff, from) ?? from;
      if (diff) Object.assign(next, { diff, diffKey: key, loading: false, pos, file: pos?.file ?? v.file });
    }
    patch(next);
    if (!timeline) await reloadTimeline();
  };

  const decide = async (input: Pick<DecideInput, 'action' | 'hunkIds' | 'path'>): Promise<void> => {
    const v = view();
    const entry = v.timeline[v.selected];
    if (!v.sessionId || !entry || v.deciding) return;
    const key = keyOf(v);
    patch({ deciding: true, notice: null });
    const scope = v.diff && v.diffKey === key ? { scope: v.diff.scope } : {};
    const target = targetOf(entry, v.against);
    const r = await call('review.decide', { sessionId: v.sessionId, target, ...input, ...scope });
    patch({ deciding: false });
    if (view().sessionId !== v.sessionId) return;
    if (!r.ok) return patch({ notice: errorNotice(r.error) });
    await fold(r.value, key, v.pos);
  };

  return {
    review: EMPTY,
    async openReview(sessionId) {
      if (view().sessionId === sessionId) return;
      cache.clear();
      clearTimeout(settle);
      clearTimeout(refresh);
      patch({ ...EMPTY, sessionId, against: view().against, sideBySide: view().sideBySide });
      if (sessionId) await reloadTimeline();
    },
    async refreshReview() {
      cache.clear();
      patch({ diffKey: null });
      await reloadTimeline();
    },
    reviewChanged(sessionId) {
      if (sessionId !== view().sessionId) return;
      clearTimeout(refresh);
      refresh = setTimeout(() => void get().refreshReview(), REFRESH_MS);
    },
    selectPoint(index) {
      const v = view();
      if (v.timeline.length === 0) return;
      const selected = Math.max(0, Math.min(v.timeline.length - 1, index));
      if (selected === v.selected && v.diffKey === keyOf(v)) return;
      patch({ selected });
      schedule();
    },
    movePoint(delta) {
      get().selectPoint(view().selected + delta);
    },
    setAgainst(against) {
      patch({ against });
      schedule();
    },
    setSideBySide(on) {
      patch({ sideBySide: on });
    },
    selectFile(index) {
      const f = view().diff?.files[index];
      if (f) patch({ file: index, pos: f.hunks.length > 0 ? { file: index, hunk: 0 } : null });
    },
    focusHunk(pos) {
      patch(pos ? { pos, file: pos.file } : { pos: null });
    },
    focusLine(line, side) {
      const v = view();
      const pos = hunkAtLine(v.diff, v.file, line, side);
      if (pos && (pos.file !== v.pos?.file || pos.hunk !== v.pos.hunk)) patch({ pos, file: pos.file });
    },
    nextHunk(dir) {
      const pos = stepHunk(view().diff, view().pos, dir);
      if (pos) patch({ pos, file: pos.file });
    },
    async decideHunk(action, hunkId) {
      const id = hunkId ?? hunkAt(view().diff, view().pos)?.id;
      if (!id) return;
      const pos = findHunk(view().diff, id);
      if (pos) patch({ pos, file: pos.file });
      await decide({ action, hunkIds: [id] });
    },
    async decideAll(action, path) {
      await decide({ action, ...(path ? { path } : {}) });
    },
    async undoDecision(decisionId) {
      const v = view();
      if (!v.sessionId) return;
      const entry = v.timeline[v.selected];
      const key = keyOf(v);
      const scope = v.diff && v.diffKey === key ? { scope: v.diff.scope } : {};
      const target = entry ? { target: targetOf(entry, v.against), ...scope } : {};
      const r = await call('review.undo', { sessionId: v.sessionId, ...(decisionId ? { decisionId } : {}), ...target });
      if (view().sessionId !== v.sessionId) return;
      if (!r.ok) return patch({ notice: errorNotice(r.error) });
      const { action, hunkIds } = r.value.decision;
      patch({
        notice: {
          kind: 'info',
          text: `Undid the ${action === 'accept' ? 'keep' : 'reject'} of ${hunkIds.length} hunk(s).`,
        },
      });
      await fold(r.value, key, view().pos);
    },
    dismissReviewNotice() {
      patch({ notice: null });
    },
  };
};
