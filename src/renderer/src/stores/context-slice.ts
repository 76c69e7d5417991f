/**
 * Context slice: what the open session's model is told — the context meter (tokens in use against the model's
 * window, the ledger's number for the last request: the provider's reported usage, else the estimate) and the
 * instruction files the baseline loaded. Main computes it (`context.get`); this slice only fetches and holds it,
 * after a session opens, after each step finishes and when a turn ends.
 */
import { call } from '../rpc';
import type { ContextSlice, Slice } from './types';

export const createContextSlice: Slice<ContextSlice> = (set, get) => ({
  contextView: null,
  async loadContext() {
    const sessionId = get().sessionId;
    if (!sessionId) return set({ contextView: null });
    const r = await call('context.get', { sessionId });
    if (get().sessionId !== sessionId) return;
    // a failed fetch leaves the last figure; the meter is information, not an error to interrupt the user with
    if (r.ok) set({ contextView: r.value });
  },
});
