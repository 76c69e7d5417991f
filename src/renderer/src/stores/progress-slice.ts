/**
 * Progress slice (issue 18 §2): the long operations main reports as `progress` events (src/shared/progress-
 * schemas.ts) — a first track, a full walk, restore, a history move, gc, an import — each kept as its latest
 * report until its `end` or `failed` removes it. What the window shows is decided here from the reports alone
 * (`shownProgress`): the open project's operations that still run and have run PROGRESS_SHOW_AFTER_MS by their
 * own clock (`elapsedMs`, measured by main) — no timer in the window, so a short operation never flickers.
 *
 * A reload or a reconnect starts from main's list of what runs now (`progress.list`), so a bar is never left from
 * before: an operation that ended meanwhile is not in the list and is dropped; one whose end already arrived is
 * never brought back by an older list.
 */
import type { ProgressEvent } from '../../../shared/progress-schemas';
import {
  phaseName,
  progressFraction,
  progressName,
  progressNumbers,
  progressShown,
} from '../../../shared/progress-text';
import { call, on, onReconnect } from '../rpc';
import type { ProgressSlice, Slice, Store } from './types';

/** How many ended operation ids are remembered (to refuse a list older than their end). */
const ENDED_KEPT = 500;

/**
 * The reports a window shows for `projectId`: still running, run long enough, of that project, oldest first.
 * Pure (the component's selector).
 */
export function shownProgress(progress: Record<string, ProgressEvent>, projectId: string | undefined): ProgressEvent[] {
  if (projectId === undefined) return [];
  return Object.values(progress).filter((e) => e.projectId === projectId && progressShown(e));
}

/** One bar as the window draws it: the operation's name, what it is doing now, and how far (0..1) when known. */
export interface ProgressRow {
  id: string;
  operation: ProgressEvent['operation'];
  name: string;
  /** "reading files · 1,204 files · 4.1 MB" (phase and numbers; '' before the first phase). */
  detail: string;
  /** Fraction done, or undefined when no total is known (the bar shows "working", never a made-up percentage). */
  fraction: number | undefined;
}

/** The rows of `shownProgress`, worded by src/shared/progress-text.ts. Pure (the component's selector). */
export function progressRows(progress: Record<string, ProgressEvent>, projectId: string | undefined): ProgressRow[] {
  return shownProgress(progress, projectId).map((e) => ({
    id: e.id,
    operation: e.operation,
    name: progressName(e.operation),
    detail: [phaseName(e.phase), progressNumbers(e)].filter((x) => x !== '').join(' · '),
    fraction: progressFraction(e),
  }));
}

/**
 * `state` after report `e`: a running report replaces the operation's last one (a report whose elapsed time is
 * older than the one held is ignored: a list answer can be older than an event); an ended one removes it. Pure.
 */
export function withReport(state: Record<string, ProgressEvent>, e: ProgressEvent): Record<string, ProgressEvent> {
  const next = { ...state };
  if (e.state === 'end' || e.state === 'failed') delete next[e.id];
  else if ((state[e.id]?.elapsedMs ?? -1) <= e.elapsedMs) next[e.id] = e;
  return next;
}

export const createProgressSlice: Slice<ProgressSlice> = (set, get) => {
  const ended = new Set<string>();
  /** Order of arrival of each operation's last report (to tell a list answer from what came after it). */
  let arrivals = 0;
  const arrivedAt = new Map<string, number>();
  return {
    progress: {},
    applyProgress(e) {
      if (e.state === 'end' || e.state === 'failed') {
        ended.add(e.id);
        if (ended.size > ENDED_KEPT) ended.delete(ended.values().next().value as string);
        arrivedAt.delete(e.id);
      } else if (ended.has(e.id)) return;
      else arrivedAt.set(e.id, ++arrivals);
      set({ progress: withReport(get().progress, e) });
    },
    async loadProgress() {
      const asked = arrivals;
      const r = await call('progress.list', {});
      if (!r.ok) return; // the window goes on with what events tell it
      const listed = new Set(r.value.map((e) => e.id));
      let next: Record<string, ProgressEvent> = {};
      // Kept: what the list names, and what reported after the list was asked for (it may have started since).
      for (const [id, e] of Object.entries(get().progress))
        if (listed.has(id) || (arrivedAt.get(id) ?? 0) > asked) next[id] = e;
      for (const e of r.value) if (!ended.has(e.id)) next = withReport(next, e);
      for (const id of arrivedAt.keys()) if (!(id in next)) arrivedAt.delete(id);
      set({ progress: next });
    },
  };
};

/**
 * Wires the slice: `progress` events, and main's list at boot and after every reconnect. Called once from boot
 * (never from the slice's initialiser). Returns the unsubscribe function.
 */
export function connectProgress(get: () => Store): () => void {
  const offs = [on('progress', (e) => get().applyProgress(e)), onReconnect(() => void get().loadProgress())];
  void get().loadProgress();
  return () => offs.forEach((off) => off());
}
