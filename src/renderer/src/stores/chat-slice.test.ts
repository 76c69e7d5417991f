/**
 * The chat slice as a specification: streamed deltas grow one text part (a part may arrive before its message),
 * a stored part replaces the streamed one, removals drop exactly what they name. Runs on the real store.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { useStore } from './index';

const S = 'ses_1';

beforeEach(() => {
  useStore.setState({ sessionId: S, messages: [], asks: [], busy: false });
});

describe('chat slice', () => {
  test('deltas create then extend a text part; a stored part replaces it byte for byte', () => {
    const s = useStore.getState();
    s.applyEvent({ type: 'message.added', seq: 1, message: { id: 'm1', sessionId: S, role: 'assistant', time: 1 } });
    s.applyDeltas(new Map([['p1', { messageId: 'm1', text: 'Hel', reasoning: false }]]));
    s.applyDeltas(new Map([['p1', { messageId: 'm1', text: 'lo', reasoning: false }]]));
    expect(useStore.getState().messages).toEqual([
      {
        id: 'm1',
        sessionId: S,
        role: 'assistant',
        time: 1,
        parts: [expect.objectContaining({ id: 'p1', type: 'text', text: 'Hello' })],
      },
    ]);
    s.applyEvent({
      type: 'part.updated',
      seq: 2,
      part: { id: 'p1', sessionId: S, messageId: 'm1', time: 2, type: 'text', text: 'Hello!' },
    });
    expect(useStore.getState().messages[0]?.parts).toEqual([
      { id: 'p1', sessionId: S, messageId: 'm1', time: 2, type: 'text', text: 'Hello!' },
    ]);
  });

  test('a part for an unknown message makes an assistant message for it', () => {
    useStore.getState().applyEvent({
      type: 'part.updated',
      seq: 1,
      part: { id: 'p9', sessionId: S, messageId: 'm9', time: 5, type: 'step-start', snapshot: 'abc' },
    });
    expect(useStore.getState().messages).toEqual([
      { id: 'm9', sessionId: S, role: 'assistant', time: 5, parts: [expect.objectContaining({ id: 'p9' })] },
    ]);
  });

  test('message.removed and part.removed drop exactly the named ones', () => {
    const s = useStore.getState();
    for (const id of ['m1', 'm2', 'm3'])
      s.applyEvent({ type: 'message.added', seq: 1, message: { id, sessionId: S, role: 'user', time: 1 } });
    s.applyDeltas(
      new Map([
        ['a', { messageId: 'm1', text: 'x', reasoning: false }],
        ['b', { messageId: 'm1', text: 'y', reasoning: true }],
      ]),
    );
    s.applyEvent({ type: 'part.removed', seq: 2, sessionId: S, messageId: 'm1', partIds: ['a'] });
    s.applyEvent({ type: 'message.removed', seq: 3, sessionId: S, messageIds: ['m2'] });
    const after = useStore.getState().messages;
    expect(after.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(after[0]?.parts.map((p) => [p.id, p.type])).toEqual([['b', 'reasoning']]);
  });

  test('a message added twice is kept once', () => {
    const s = useStore.getState();
    s.applyEvent({ type: 'message.added', seq: 1, message: { id: 'm1', sessionId: S, role: 'user', time: 1 } });
    s.applyEvent({ type: 'message.added', seq: 1, message: { id: 'm1', sessionId: S, role: 'user', time: 1 } });
    expect(useStore.getState().messages).toHaveLength(1);
  });
});
