/**
 * Session search (the session list's search box): the query as typed and the sessions main found for it
 * (`sessions.search`: title and message text, every word, snippets with the match marked). Answers arrive out of
 * order while the user types; only the answer to the latest query is kept (a sequence number per call). An empty
 * query shows the plain list again. Opening a found message sets `focusMessage`: the transcript scrolls to it and
 * marks it.
 */
import { call } from '../rpc';
import type { SearchSlice, Slice } from './types';

export const createSearchSlice: Slice<SearchSlice> = (set, get) => {
  let seq = 0;
  return {
    searchQuery: '',
    searchHits: null,
    async setSearch(query) {
      const project = get().project;
      const asked = ++seq;
      set({ searchQuery: query });
      if (!project || query.trim() === '') return set({ searchHits: null });
      const r = await call('sessions.search', { projectId: project.id, query });
      if (asked !== seq) return;
      if (r.ok) set({ searchHits: r.value });
      else {
        set({ searchHits: [] });
        get().showError(r.error);
      }
    },
    focusMessage: null,
    async openSearchHit(sessionId, messageId) {
      await get().selectSession(sessionId);
      if (get().sessionId === sessionId) set({ focusMessage: messageId ?? null });
    },
    clearSearch() {
      seq++;
      set({ searchQuery: '', searchHits: null });
    },
  };
};
