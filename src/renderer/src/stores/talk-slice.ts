/**
 * Talk slice: the open session's mode and model (the chat's picker; Ctrl/Cmd+. or Alt+Shift+M cycles the mode —
 * the key table's chat.mode), the answers to the question tool's cards, and the admission queue (messages sent
 * while a turn runs: stored by main
 * at once, shown here as queued until promoted; `queue.updated` events keep the list). Main stores the choice and applies it at the next step (talk.set); the
 * slice only keeps the view main answered.
 */
import { call } from '../rpc';
import type { Slice, TalkSlice } from './types';

export const createTalkSlice: Slice<TalkSlice> = (set, get) => ({
  talk: null,
  queued: [],
  async queueDraft(steer) {
    const text = get().draft.trim();
    const sessionId = get().sessionId;
    if (!text || !sessionId) return;
    set({ draft: '' });
    const r = await call('queue.send', { sessionId, text, steer });
    if (!r.ok) {
      set({ draft: text });
      return get().showError(r.error);
    }
    if (!r.value.started && get().sessionId === sessionId && !get().queued.some((q) => q.id === r.value.id))
      set({ queued: [...get().queued, { id: r.value.id, sessionId, text, time: r.value.time, steer }] });
  },
  async editQueued(id, change) {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('queue.edit', { sessionId, id, ...change });
    if (!r.ok) return get().showError(r.error);
    set({ queued: get().queued.map((q) => (q.id === id ? r.value : q)) });
  },
  async removeQueued(id) {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('queue.remove', { sessionId, id });
    if (!r.ok) return get().showError(r.error);
    set({ queued: get().queued.filter((q) => q.id !== id) });
  },
  async resumeQueue() {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('queue.resume', { sessionId });
    if (!r.ok) get().showError(r.error);
  },
  async loadTalk() {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('talk.get', { sessionId });
    if (!r.ok) return get().showError(r.error);
    if (get().sessionId === sessionId) set({ talk: r.value });
  },
  async chooseTalk(change) {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('talk.set', { sessionId, ...change });
    if (!r.ok) return get().showError(r.error);
    if (get().sessionId === sessionId) set({ talk: r.value });
  },
  async cycleMode() {
    const talk = get().talk;
    if (!talk || talk.modes.length === 0) return;
    const i = talk.modes.findIndex((m) => m.name === talk.mode);
    const next = talk.modes[(i + 1) % talk.modes.length];
    if (next) await get().chooseTalk({ mode: next.name });
  },
  async answerQuestion(partId, reply) {
    const sessionId = get().sessionId;
    if (!sessionId) return;
    const r = await call('question.answer', { sessionId, partId, ...reply });
    if (!r.ok) get().showError(r.error);
  },
});
