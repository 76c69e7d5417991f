/**
 * The repetition stop's card as the store decides it (loop-stop.ts, loop-slice.ts), with the calls counted at the
 * transport (the `window.landfall` door rpc/ uses; every scripted answer parsed with the contract's own output
 * schema first): "Go on" and "Stop here" are ONE `loop.answer` call with exactly the session, part and decision;
 * a second click while the first is on its way, a click while a turn runs, on a decided stop or on one past the
 * revert boundary sends nothing; a refusal is shown and the session's messages are fetched again.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { CALL_NAMES, EVENT_NAMES, calls as contract } from '../../../shared/contract';
import type { CallName, CallOutput, LandfallApi, MessageWithParts } from '../../../shared/contract';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { createAppStore } from './index';
import { loopStopView, shownInput, toldByLoopCard } from './loop-stop';
import type { LoopStopPart } from './loop-stop';

type Script = { [N in CallName]?: (input: unknown) => Promise<CallOutput<N> | Result<CallOutput<N>>> };

const sent: { name: string; input: unknown }[] = [];
let script: Script = {};
const answer = async (name: CallName, input: unknown): Promise<Result<unknown>> => {
  sent.push({ name, input });
  const run = script[name];
  if (!run) return fail('unavailable', `${name} is not scripted`, 'Script it in the test.');
  const out = (await run(input)) as unknown;
  const r = (typeof out === 'object' && out !== null && 'ok' in out ? out : ok(out)) as Result<unknown>;
  return r.ok ? ok(contract[name].output.parse(r.value)) : r;
};
(globalThis as { window?: unknown }).window = {
  landfall: {
    calls: Object.fromEntries(CALL_NAMES.map((n) => [n, (input: unknown) => answer(n, input)])),
    events: Object.fromEntries(EVENT_NAMES.map((n) => [n, () => () => {}])),
  } as unknown as LandfallApi,
};

const S = 'ses_loop';
const stop = (decision?: LoopStopPart['decision']): LoopStopPart => ({
  id: 'prt_stop',
  sessionId: S,
  messageId: 'msg_a',
  time: 2,
  type: 'loop-stop',
  tool: 'bash',
  input: { command: 'npm test', description: 'run the tests' },
  repeats: 5,
  ...(decision ? { decision } : {}),
});
const transcript = (part: LoopStopPart): MessageWithParts[] => [
  { id: 'msg_u', sessionId: S, role: 'user', time: 1, parts: [] },
  { id: 'msg_a', sessionId: S, role: 'assistant', time: 2, parts: [part] },
];
const session = (revert?: { messageId: string; partId?: string }) => ({
  id: S,
  projectId: 'prj',
  title: 't',
  created: 1,
  updated: 1,
  ...(revert ? { revert: { ...revert, snapshot: 'h' } } : {}),
});

let store: ReturnType<typeof createAppStore>;
beforeEach(() => {
  sent.length = 0;
  script = {};
  store = createAppStore();
  store.setState({ sessionId: S, sessions: [session()], messages: transcript(stop()) });
});

describe('loopStopView: what the card shows and allows', () => {
  test('waiting: the call, the count, buttons usable; blocked while a turn runs or an answer is on its way', () => {
    const free = loopStopView(stop(), { reverted: false, running: false, answering: false });
    expect(free).toEqual({
      state: 'waiting',
      title: 'Stopped: the agent made the same call 5 times in a row',
      tool: 'bash',
      input: '{\n  "command": "npm test",\n  "description": "run the tests"\n}',
      canAnswer: true,
    });
    expect(loopStopView(stop(), { reverted: false, running: true, answering: false })).toMatchObject({
      canAnswer: false,
      blockedBy: 'A turn is running; answer when it ends.',
    });
    expect(loopStopView(stop(), { reverted: false, running: false, answering: true })).toMatchObject({
      canAnswer: false,
      blockedBy: 'Sending your answer…',
    });
  });

  test('decided, superseded and reverted stops say how and offer nothing', () => {
    const flags = { reverted: false, running: false, answering: false };
    expect(loopStopView(stop('continue'), flags)).toMatchObject({ state: 'continue', canAnswer: false });
    expect(loopStopView(stop('stop'), flags).outcome).toBe('Stopped here.');
    expect(loopStopView(stop('superseded'), flags).outcome).toBe('Answered by your next message.');
    const undone = loopStopView(stop(), { ...flags, reverted: true });
    expect([undone.state, undone.canAnswer, undone.outcome]).toEqual([
      'reverted',
      false,
      'Undone with the messages after the revert point.',
    ]);
    // a decision stored before the revert still reads as that decision
    expect(loopStopView(stop('stop'), { ...flags, reverted: true }).state).toBe('stop');
  });

  test('the live loop_detected error is told by the card, not twice; other errors still show', () => {
    expect(toldByLoopCard(transcript(stop()), 'loop_detected')).toBe(true);
    expect(toldByLoopCard(transcript(stop()), 'budget_exceeded')).toBe(false);
    expect(toldByLoopCard([transcript(stop())[0] as MessageWithParts], 'loop_detected')).toBe(false);
  });

  test('a long input is cut at 1,200 characters and says its full length', () => {
    const text = shownInput({ content: 'x'.repeat(5000) });
    expect(text.length).toBeLessThan(1250);
    expect(text.endsWith(`\n… (${JSON.stringify({ content: 'x'.repeat(5000) }, null, 2).length} characters)`)).toBe(
      true,
    );
  });
});

describe('loop slice: one call per answer', () => {
  test('"Go on": exactly one loop.answer with the session, the part and the decision', async () => {
    script = { 'loop.answer': async () => ({ decision: 'continue', started: true }) };
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(true);
    expect(sent).toEqual([{ name: 'loop.answer', input: { sessionId: S, partId: 'prt_stop', decision: 'continue' } }]);
    expect(store.getState().loopAnswering).toEqual({});
  });

  test('a second click while the first answer is on its way sends nothing', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    script = {
      'loop.answer': async () => {
        await held;
        return { decision: 'stop', started: false };
      },
    };
    const first = store.getState().answerLoop('prt_stop', 'stop');
    expect(store.getState().loopAnswering).toEqual({ prt_stop: 'stop' });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(sent.map((c) => c.input)).toEqual([{ sessionId: S, partId: 'prt_stop', decision: 'stop' }]);
  });

  test('nothing is sent while a turn runs, for a decided stop, one past the revert boundary, or an unknown part', async () => {
    script = { 'loop.answer': async () => ({ decision: 'continue', started: true }) };
    store.setState({ running: { [S]: 1 } });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(false);
    store.setState({ running: {}, messages: transcript(stop('stop')) });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(false);
    store.setState({ messages: transcript(stop()), sessions: [session({ messageId: 'msg_u' })] });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(false);
    store.setState({ sessions: [session({ messageId: 'msg_a', partId: 'prt_stop' })] });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(false);
    store.setState({ sessions: [session()] });
    expect(await store.getState().answerLoop('prt_other', 'continue')).toBe(false);
    expect(sent).toEqual([]);
    // a boundary after the stop leaves it waiting: answerable
    store.setState({
      messages: [...transcript(stop()), { id: 'msg_u2', sessionId: S, role: 'user', time: 3, parts: [] }],
      sessions: [session({ messageId: 'msg_u2' })],
    });
    expect(await store.getState().answerLoop('prt_stop', 'continue')).toBe(true);
    expect(sent.map((c) => c.name)).toEqual(['loop.answer']);
  });

  test('a refusal (answered elsewhere) is shown, and the messages are fetched again so the card shows it', async () => {
    const decided = transcript(stop('continue'));
    script = {
      'loop.answer': async () =>
        fail('conflict', 'This repetition stop was answered already (continue).', 'Send a message.'),
      'sessions.get': async () => ({ session: session(), messages: decided, busy: false, asks: [], queued: [] }),
    };
    expect(await store.getState().answerLoop('prt_stop', 'stop')).toBe(false);
    expect(sent.map((c) => c.name)).toEqual(['loop.answer', 'sessions.get']);
    expect(store.getState().error?.code).toBe('conflict');
    const part = store.getState().messages[1]?.parts[0];
    expect(part?.type === 'loop-stop' && part.decision).toBe('continue');
    expect(store.getState().loopAnswering).toEqual({});
  });
});
