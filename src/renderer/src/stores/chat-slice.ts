/**
 * Chat slice: the open session's messages and parts, busy state, pending permission asks, and the draft.
 * `/undo` and `/redo` typed in the input are commands: the history slice's undo / redo (history-slice.ts, the one
 * home of history moves); `/compact` compacts the session now (compaction-slice.ts). `/replay <folder>` (or `/replay sample`) plays a recorded session into the open project.
 */
import { call } from '../rpc';
import type { MessageWithParts, Part } from '../../../shared/contract';
import type { ChatSlice, Slice } from './types';
import { upsertPart } from './parts';
import { mentionsOf } from './mentions';
import { commandWord, SLASH_COMMANDS } from './slash';

const DOUBLE_ESCAPE_MS = 1500;

export const createChatSlice: Slice<ChatSlice> = (set, get) => {
  return {
    messages: [],
    busy: false,
    turnStart: 0,
    running: {},
    turnErrors: {},
    asks: [],
    draft: '',
    lastEscape: 0,
    setDraft(text) {
      set({ draft: text });
    },
    async send() {
      const text = get().draft.trim();
      const sessionId = get().sessionId;
      if (!text || !sessionId) return;
      if (text === '/undo') return get().undo();
      if (text === '/redo') return get().redo();
      if (text === '/compact') return get().compactNow();
      const replay = /^\/replay\s+(.+)$/s.exec(text);
      if (replay) {
        set({ draft: '' });
        return get().replay((replay[1] as string).trim());
      }
      const word = commandWord(text);
      if (word !== null && !SLASH_COMMANDS.some((c) => c.name === word))
        return get().showError({
          code: 'invalid_input',
          message: `/${word} is not a command; nothing was sent.`,
          hint: `Commands: ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(', ')}. To send it to the model as text, start with a space.`,
        });
      // while a turn runs the message is admitted to the queue (main stores it at once)
      if (get().busy) return get().queueDraft(false);
      // Sending makes a revert final (cleanup): a kept-files notice about it has nothing left to overwrite.
      set({ draft: '', historyNotice: null, overwriteAsked: false });
      if (text.includes('@') && get().tree === null) await get().loadTree();
      const attachments = mentionsOf(text, new Set(get().tree ?? []));
      const r = await call('chat.prompt', { sessionId, text, ...(attachments.length > 0 ? { attachments } : {}) });
      if (!r.ok) {
        set({ draft: text });
        get().showError(r.error);
      }
    },
    async replay(recording, text, tour) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const r = await call('chat.replay', {
        sessionId,
        recording,
        ...(text ? { text } : {}),
        ...(tour ? { tour } : {}),
      });
      if (!r.ok) get().showError(r.error);
    },
    async stop() {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const r = await call('chat.stop', { sessionId });
      if (!r.ok) get().showError(r.error);
    },
    async escape() {
      const now = Date.now();
      if (get().busy && now - get().lastEscape < DOUBLE_ESCAPE_MS) {
        set({ lastEscape: 0 });
        return get().stop();
      }
      set({ lastEscape: now });
    },
    async answer(askId, answer, reason, pattern) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const r = await call('permission.answer', {
        sessionId,
        askId,
        answer,
        ...(reason ? { reason } : {}),
        ...(pattern ? { pattern } : {}),
      });
      if (!r.ok) return get().showError(r.error);
      set({ asks: get().asks.filter((a) => a.requestId !== askId) });
    },
    applyEvent(event) {
      const messages = get().messages;
      if (event.type === 'message.added') {
        if (messages.some((m) => m.id === event.message.id)) return;
        set({ messages: [...messages, { ...event.message, parts: [] }] });
      } else if (event.type === 'message.removed') {
        const gone = new Set(event.messageIds);
        set({ messages: messages.filter((m) => !gone.has(m.id)) });
      } else if (event.type === 'part.removed') {
        const gone = new Set(event.partIds);
        set({
          messages: messages.map((m) =>
            m.id === event.messageId ? { ...m, parts: m.parts.filter((p) => !gone.has(p.id)) } : m,
          ),
        });
      } else {
        set({ messages: withPart(messages, event.part) });
      }
    },
    applyDeltas(deltas) {
      let messages = get().messages;
      for (const [partId, d] of deltas) {
        const message = messages.find((m) => m.id === d.messageId);
        const existing = message?.parts.find((p) => p.id === partId);
        const text =
          existing && (existing.type === 'text' || existing.type === 'reasoning') ? existing.text + d.text : d.text;
        const part: Part = {
          id: partId,
          sessionId: get().sessionId ?? '',
          messageId: d.messageId,
          time: existing?.time ?? Date.now(),
          type: d.reasoning ? 'reasoning' : 'text',
          text,
        };
        messages = withPart(messages, part);
      }
      set({ messages });
    },
  };
};

/** Puts a part into its message (creating an assistant message placeholder if the part arrived first). */
function withPart(messages: MessageWithParts[], part: Part): MessageWithParts[] {
  const index = messages.findIndex((m) => m.id === part.messageId);
  if (index < 0) {
    return [
      ...messages,
      { id: part.messageId, sessionId: part.sessionId, role: 'assistant', time: part.time, parts: [part] },
    ];
  }
  const next = messages.slice();
  const message = next[index] as MessageWithParts;
  next[index] = { ...message, parts: upsertPart(message.parts, part) };
  return next;
}
