/**
 * The review store (issue 8; DESIGN §10: components render, stores decide): the session's timeline, the selected
 * point, what it is compared against, its diff, the focused file and hunk, and the decision actions.
 *
 * Scrubbing is cheap by construction: `select()` only moves an index (one render of the strip); the diff of the
 * point loads after the pointer rests (SETTLE_MS) and is cached per (point, against), so dragging across 500 steps
 * never waits on main. After a decision the view moves to the next pending hunk. Nothing here moves keyboard
 * focus (bug B41): focus belongs to whatever the user last clicked.
 */
import { create } from 'zustand';
import type { LandfallError } from '../../../../shared/errors';
import type {
  DecideInput,
  HunkConflict,
  ReviewDiff,
  ReviewTarget,
  TimelineEntry,
} from '../../../../shared/review-schemas';
import type { ReviewApi, RevertPreview } from './review-api';
import { findHunk, hunkAt, nextPending, stepHunk, type HunkPos } from './nav';

export type Against = 'previous' | 'turn' | 'start' | 'now';

/** What the panel reports after an action: a conflict (with its hunks), an error, or plain information. */
export type ReviewNotice =
  { kind: 'conflict'; text: string; conflicts: HunkConflict[] } | { kind: 'error' | 'info'; text: string };

export interface ReviewState {
  api: ReviewApi | null;
  sessionId: string | null;
  timeline: TimelineEntry[];
  selected: number;
  against: Against;
  diff: ReviewDiff | null;
  diffKey: string | null;
  loading: boolean;
  file: number;
  pos: HunkPos | null;
  sideBySide: boolean;
  deciding: boolean;
  notice: ReviewNotice | null;
  revert: { messageId: string; preview: RevertPreview } | null;
  connect(api: ReviewApi): void;
  open(sessionId: string | null): Promise<void>;
  reloadTimeline(): Promise<void>;
  /** Reload timeline and diff from main (after pushed changes: a step finished, a revert, a decision elsewhere). */
  refresh(): Promise<void>;
  /**
   * Follow the session's pushed review events (snapshot added, session row changed, turn ended, messages removed —
   * never text deltas) with one debounced `refresh()` per burst (REFRESH_MS). Returns the unsubscribe function.
   */
  watch(sessionId: string): () => void;
  select(index: number): void;
  move(delta: number): void;
  setAgainst(against: Against): void;
  setSideBySide(on: boolean): void;
  selectFile(index: number): void;
  focusHunk(pos: HunkPos | null): void;
  nextHunk(dir: 1 | -1): void;
  decideHunk(action: 'accept' | 'reject', hunkId?: string): Promise<void>;
  decideAll(action: 'accept' | 'reject', path?: string): Promise<void>;
  undo(decisionId?: string): Promise<void>;
  previewRevert(messageId: string): Promise<void>;
  confirmRevert(force?: boolean): Promise<void>;
  cancelRevert(): void;
  unrevert(): Promise<void>;
  redo(): Promise<void>;
  dismiss(): void;
}

/** Pointer rest time before a scrubbed-to point's diff loads (ms). */
export const SETTLE_MS = 70;
/** Pushed changes arrive in bursts (a step ends with several parts): one refresh per burst, after this quiet (ms). */
export const REFRESH_MS = 150;
const CACHE_MAX = 40;

const cache = new Map<string, ReviewDiff>();
let settle: ReturnType<typeof setTimeout> | undefined;

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

export const useReviewStore = create<ReviewState>()((set, get) => {
  const keyOf = (s: ReviewState): string | null => {
    const e = s.timeline[s.selected];
    return e && s.sessionId ? `${s.sessionId}|${e.id}|${s.against}` : null;
  };

  const loadDiff = async (force = false): Promise<void> => {
    const s = get();
    const key = keyOf(s);
    const entry = s.timeline[s.selected];
    if (!s.api || !s.sessionId || !key || !entry) return set({ diff: null, diffKey: null, loading: false });
    const hit = force ? undefined : cache.get(key);
    if (hit) return set({ diff: hit, diffKey: key, loading: false, ...keepPos(hit, key) });
    set({ loading: true });
    const r = await s.api.diff(s.sessionId, targetOf(entry, s.against));
    if (keyOf(get()) !== key) return; // the user scrubbed on meanwhile
    if (!r.ok) return set({ loading: false, notice: errorNotice(r.error) });
    cache.set(key, r.value);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
    set({ diff: r.value, diffKey: key, loading: false, ...keepPos(r.value, key) });
  };

  /** Keep the focused hunk when the same diff reloads; otherwise start at the first file's first pending hunk. */
  const keepPos = (diff: ReviewDiff, key: string): Partial<ReviewState> => {
    const s = get();
    if (s.diffKey === key && s.pos) {
      const id = hunkAt(s.diff, s.pos)?.id;
      const again = id ? findHunk(diff, id) : null;
      if (again) return { pos: again, file: again.file };
    }
    const pos = nextPending(diff, null) ?? stepHunk(diff, null, 1);
    return { pos, file: pos?.file ?? 0 };
  };

  const schedule = (): void => {
    clearTimeout(settle);
    const key = keyOf(get());
    const hit = key ? cache.get(key) : undefined;
    if (hit && key) {
      set({ diff: hit, diffKey: key, ...keepPos(hit, key) });
      return;
    }
    settle = setTimeout(() => void loadDiff(), SETTLE_MS);
  };

  const afterDecision = async (from: HunkPos | null): Promise<void> => {
    cache.clear();
    await get().reloadTimeline();
    await loadDiff(true);
    const diff = get().diff;
    const pos = nextPending(diff, from) ?? from;
    set({ pos, file: pos?.file ?? get().file });
  };

  const run = async (input: Omit<DecideInput, 'sessionId' | 'target'>): Promise<void> => {
    const s = get();
    const entry = s.timeline[s.selected];
    if (!s.api || !s.sessionId || !entry || s.deciding) return;
    set({ deciding: true, notice: null });
    const r = await s.api.decide({ sessionId: s.sessionId, target: targetOf(entry, s.against), ...input });
    set({ deciding: false });
    if (!r.ok) return set({ notice: errorNotice(r.error) });
    await afterDecision(s.pos);
  };

  const historyCall = async (
    fn: (api: ReviewApi, sessionId: string) => Promise<{ ok: boolean; error?: LandfallError }>,
  ): Promise<void> => {
    const { api, sessionId } = get();
    if (!api || !sessionId) return;
    const r = await fn(api, sessionId);
    if (!r.ok && r.error) return set({ notice: errorNotice(r.error) });
    set({ notice: null });
    cache.clear();
    await get().reloadTimeline();
  };

  return {
    api: null,
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
    revert: null,
    connect(api) {
      set({ api });
    },
    async open(sessionId) {
      if (get().sessionId === sessionId) return;
      cache.clear();
      set({ sessionId, timeline: [], selected: 0, diff: null, diffKey: null, pos: null, notice: null, revert: null });
      if (sessionId) await get().reloadTimeline();
    },
    async reloadTimeline() {
      const { api, sessionId } = get();
      if (!api || !sessionId) return;
      const r = await api.timeline(sessionId);
      if (get().sessionId !== sessionId) return;
      if (!r.ok) return set({ notice: errorNotice(r.error) });
      const prev = get().timeline[get().selected]?.id;
      const at = prev ? r.value.findIndex((e) => e.id === prev) : -1;
      const stepsOnly = r.value.filter((e) => e.kind === 'step');
      const fallback = stepsOnly.length > 0 ? (stepsOnly[stepsOnly.length - 1] as TimelineEntry).index : 0;
      set({ timeline: r.value, selected: at >= 0 ? at : fallback });
      schedule();
    },
    async refresh() {
      cache.clear();
      set({ diffKey: null });
      await get().reloadTimeline();
    },
    watch(sessionId) {
      const api = get().api;
      if (!api?.subscribe) return () => {};
      let timer: ReturnType<typeof setTimeout> | undefined;
      const off = api.subscribe(sessionId, () => {
        clearTimeout(timer);
        timer = setTimeout(() => void get().refresh(), REFRESH_MS);
      });
      return () => {
        clearTimeout(timer);
        off();
      };
    },
    select(index) {
      const n = get().timeline.length;
      if (n === 0) return;
      const selected = Math.max(0, Math.min(n - 1, index));
      if (selected === get().selected && get().diffKey === keyOf(get())) return;
      set({ selected });
      schedule();
    },
    move(delta) {
      get().select(get().selected + delta);
    },
    setAgainst(against) {
      set({ against });
      schedule();
    },
    setSideBySide(on) {
      set({ sideBySide: on });
    },
    selectFile(index) {
      const f = get().diff?.files[index];
      if (!f) return;
      set({ file: index, pos: f.hunks.length > 0 ? { file: index, hunk: 0 } : null });
    },
    focusHunk(pos) {
      set(pos ? { pos, file: pos.file } : { pos: null });
    },
    nextHunk(dir) {
      const pos = stepHunk(get().diff, get().pos, dir);
      set(pos ? { pos, file: pos.file } : {});
    },
    async decideHunk(action, hunkId) {
      const id = hunkId ?? hunkAt(get().diff, get().pos)?.id;
      if (!id) return;
      const pos = findHunk(get().diff, id);
      if (pos) set({ pos, file: pos.file });
      await run({ action, hunkIds: [id] });
    },
    async decideAll(action, path) {
      await run({ action, ...(path ? { path } : {}) });
    },
    async undo(decisionId) {
      const { api, sessionId } = get();
      if (!api || !sessionId) return;
      const r = await api.undo(sessionId, decisionId);
      if (!r.ok) return set({ notice: errorNotice(r.error) });
      set({
        notice: {
          kind: 'info',
          text: `Undid the ${r.value.decision.action === 'accept' ? 'keep' : 'reject'} of ${r.value.decision.hunkIds.length} hunk(s).`,
        },
      });
      await afterDecision(get().pos);
    },
    async previewRevert(messageId) {
      const { api, sessionId } = get();
      if (!api || !sessionId) return;
      const r = await api.revertPreview(sessionId, messageId);
      if (!r.ok) return set({ notice: errorNotice(r.error) });
      set({ revert: { messageId, preview: r.value }, notice: null });
    },
    async confirmRevert(force = false) {
      const { api, sessionId, revert } = get();
      if (!api || !sessionId || !revert) return;
      const r = await api.revert(sessionId, revert.messageId, force);
      set({ revert: null });
      if (!r.ok) return set({ notice: errorNotice(r.error) });
      set({ notice: null });
      cache.clear();
      await get().reloadTimeline();
    },
    cancelRevert() {
      set({ revert: null });
    },
    async unrevert() {
      await historyCall((api, sessionId) => api.unrevert(sessionId));
    },
    async redo() {
      await historyCall((api, sessionId) => api.redo(sessionId));
    },
    dismiss() {
      set({ notice: null });
    },
  };
});
