/** Trusted folders slice: the list from main (trust.list) and the one action that changes it (trust.set). */
import { call } from '../rpc';
import type { Slice, TrustSlice } from './types';

export const createTrustSlice: Slice<TrustSlice> = (set, get) => ({
  trust: null,
  async loadTrust() {
    const r = await call('trust.list', {});
    if (!r.ok) return get().showError(r.error);
    set({ trust: r.value });
  },
  async setTrust(path, trusted) {
    const r = await call('trust.set', { path, trusted });
    if (!r.ok) return get().showError(r.error);
    set({ trust: r.value });
    // a project's own MCP servers start or stop with its folder's trust
    await get().loadMcp();
  },
});
