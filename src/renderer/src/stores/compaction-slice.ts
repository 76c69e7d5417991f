/**
 * Compaction from the chat: `/compact` (compaction.run: fold the older history into a summary now) and the
 * marker's Undo / Redo (compaction.undo). The stored part reaches the transcript through the `part.updated`
 * event; a refusal (`busy`, `no_change`, the provider's error) is shown as the window's error.
 */
import { call } from '../rpc';
import type { CompactionSlice, Slice } from './types';

export const createCompactionSlice: Slice<CompactionSlice> = (set, get) => ({
  compacting: false,
  async compactNow() {
    const sessionId = get().sessionId;
    if (!sessionId || get().compacting) return;
    set({ draft: '', compacting: true });
    const r = await call('compaction.run', { sessionId });
    set({ compacting: false });
    if (!r.ok) get().showError(r.error);
  },
  async setCompactionUndone(partId, undone) {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('compaction.undo', { sessionId, partId, undone });
    if (!r.ok) get().showError(r.error);
  },
});
