/**
 * Talk slice: the open session's mode and model (the chat's picker; Tab cycles the mode, as in opencode) and the
 * answers to the question tool's cards. Main stores the choice and applies it at the next step (talk.set); the
 * slice only keeps the view main answered.
 */
import { call } from '../rpc';
import type { Slice, TalkSlice } from './types';

export const createTalkSlice: Slice<TalkSlice> = (set, get) => ({
  talk: null,
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
