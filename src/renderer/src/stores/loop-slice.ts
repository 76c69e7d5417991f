/**
 * Loop slice: the user's answer to a repetition stop (a `loop-stop` part; main's rules in
 * src/main/agent/loop-decision.ts). "Go on" / "Stop here" is ONE `loop.answer` call per click: a second click
 * while the first is on its way, a click while the session runs a turn, or a click on a stop that is no longer
 * waiting sends nothing (loop-stop.ts `loopStopView` decides). Main marks the part and, for "Go on", starts the
 * new turn; the decided part and the new turn reach the chat through the usual events. A refusal (`conflict`:
 * answered elsewhere, `busy`, `not_found`) is shown as the window's error and the session's messages are fetched
 * again, so the card shows what main holds.
 */
import { call } from '../rpc';
import { loopStopView } from './loop-stop';
import type { LoopSlice, Slice, Store } from './types';

export const createLoopSlice: Slice<LoopSlice> = (set, get) => ({
  loopAnswering: {},
  async answerLoop(partId, decision) {
    const s = get();
    const sessionId = s.sessionId;
    if (!sessionId) return false;
    const part = s.messages.flatMap((m) => m.parts).find((p) => p.id === partId);
    if (part?.type !== 'loop-stop') return false;
    const view = loopStopView(part, {
      reverted: isReverted(s, partId),
      running: !!s.running[sessionId],
      answering: !!s.loopAnswering[partId],
    });
    if (!view.canAnswer) return false;
    set({ loopAnswering: { ...get().loopAnswering, [partId]: decision } });
    const r = await call('loop.answer', { sessionId, partId, decision });
    const { [partId]: _sent, ...rest } = get().loopAnswering;
    set({ loopAnswering: rest });
    if (r.ok) return true;
    get().showError(r.error);
    const fresh = await call('sessions.get', { sessionId });
    if (fresh.ok && get().sessionId === sessionId) set({ messages: fresh.value.messages });
    return false;
  },
});

/** True when `partId` lies past the open session's revert boundary (it went with the undone messages). */
export function isReverted(s: Pick<Store, 'sessions' | 'sessionId' | 'messages'>, partId: string): boolean {
  const boundary = s.sessions.find((x) => x.id === s.sessionId)?.revert;
  if (!boundary) return false;
  const at = s.messages.findIndex((m) => m.id === boundary.messageId);
  if (at < 0) return false;
  for (const [i, m] of s.messages.entries()) {
    const k = m.parts.findIndex((p) => p.id === partId);
    if (k < 0) continue;
    if (i !== at) return i > at;
    const cut = boundary.partId === undefined ? 0 : m.parts.findIndex((p) => p.id === boundary.partId);
    return cut >= 0 && k >= cut;
  }
  return false;
}
