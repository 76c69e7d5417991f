/** The live line's activity, read from the open session's messages, and the per-turn token / time stats. */
import { describe, expect, it } from 'vitest';
import type { MessageWithParts, Part } from '../../../shared/contract';
import { activityOf, elapsedText } from './activity';
import { sessionStats, statsText, turnStats } from './turn-stats';

const at = { sessionId: 's', messageId: 'm' };
const msg = (parts: Part[]): MessageWithParts => ({ id: 'm', sessionId: 's', role: 'assistant', time: 1, parts });
const tool = (state: 'pending' | 'running' | 'completed', metadata?: Record<string, unknown>): Part => ({
  ...at,
  id: 't',
  time: 50,
  type: 'tool',
  tool: 'write',
  callId: 'c',
  state,
  input: {},
  ...(metadata ? { metadata } : {}),
});

describe('activityOf', () => {
  it('thinking, calling a tool, waiting for named servers, waiting for the user; null when idle', () => {
    expect(activityOf([msg([])], false, false, 10)).toBe(null);
    expect(activityOf([msg([{ ...at, id: 'x', time: 20, type: 'text', text: 'hi' }])], true, false, 10)).toEqual({
      kind: 'thinking',
      label: 'thinking',
      since: 20,
    });
    expect(activityOf([msg([tool('running')])], true, false, 10)?.label).toBe('calling write');
    expect(
      activityOf([msg([tool('running', { phase: 'diagnostics', servers: ['typescript', 'eslint'] })])], true, false, 10)
        ?.label,
    ).toBe('waiting for typescript, eslint diagnostics');
    expect(activityOf([msg([tool('pending')])], true, true, 10)?.kind).toBe('asking');
    expect(activityOf([msg([tool('completed')])], true, false, 10)?.kind).toBe('thinking');
  });

  it('elapsed text', () => {
    expect([elapsedText(0), elapsedText(4_900), elapsedText(65_000)]).toEqual(['0s', '4s', '1m 05s']);
  });
});

describe('turn stats', () => {
  const finish = (time: number, usage?: { input: number; output: number }): Part => ({
    ...at,
    id: `f${time}`,
    time,
    type: 'step-finish',
    snapshot: 'h',
    ...(usage ? { usage } : {}),
  });
  const start = (time: number): Part => ({ ...at, id: `s${time}`, time, type: 'step-start', snapshot: 'h' });

  it('sums the steps of a turn and the turns of a session; unknown usage says so', () => {
    const turn = msg([
      start(1000),
      finish(2000, { input: 1200, output: 40 }),
      start(2000),
      finish(4100, { input: 1300, output: 16 }),
    ]);
    expect(turnStats(turn)).toEqual({ input: 2500, output: 56, ms: 3100, reported: true });
    expect(statsText(turnStats(turn))).toBe('2.5k in · 56 out · 3.1 s');
    expect(statsText(turnStats(msg([start(0), finish(500)])))).toBe('tokens not reported · 0.5 s');
    const user: MessageWithParts = { id: 'u', sessionId: 's', role: 'user', time: 0, parts: [] };
    expect(sessionStats([user, turn, turn])).toEqual({ input: 5000, output: 112, ms: 6200, reported: true });
  });
});
