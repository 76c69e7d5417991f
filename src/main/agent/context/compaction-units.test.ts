/**
 * The pure pieces of compaction: the summary request stays within its budget (tool results dropped oldest first,
 * then a cut that needs no model), the cut point keeps the recent history at unit boundaries, the window catalog,
 * and the rule "3 automatic compactions without a successful model step → stop".
 */
import fc from 'fast-check';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { HistoryUnit } from './compaction-history';
import { summaryRequest } from './compaction-request';
import { keptFromIndex } from './compaction';
import { compactionThreshold, FALLBACK_WINDOW, windowFor } from './windows';

function stepUnit(i: number, output: string): HistoryUnit {
  const messages: ModelMessage[] = [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'bash', input: { command: `make test ${i}` } }],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: `c${i}`, toolName: 'bash', output: { type: 'text', value: output } },
      ],
    },
  ];
  return { id: `prt_${i}`, messageId: 'msg_a', role: 'assistant', messages };
}
const user = (text: string): HistoryUnit => ({
  id: 'msg_u',
  messageId: 'msg_u',
  role: 'user',
  text,
  messages: [{ role: 'user', content: text }],
});

describe('summaryRequest', () => {
  it('property: never over budget; tool results go first, oldest first; the task survives (attempts / held)', () => {
    let attempts = 0;
    let held = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 4_000, max: 60_000 }),
        fc.option(fc.string({ maxLength: 3_000 }), { nil: undefined }),
        (sizes, budget, previous) => {
          attempts++;
          const units = [
            user('TASK: fix the parser'),
            ...sizes.map((n, i) => stepUnit(i, `log line ${i}\n`.repeat(n / 5))),
          ];
          const r = summaryRequest(units, previous, budget);
          expect(r.tokens).toBeLessThanOrEqual(budget);
          expect(r.prompt).toContain('TASK: fix the parser');
          if (previous !== undefined && !r.cut) expect(r.prompt).toContain(previous);
          held++;
        },
      ),
      { numRuns: 60 },
    );
    console.log(`summary request bound: attempts ${attempts} / held ${held}`);
  });

  it('drops the oldest tool outputs first, and only as many as needed', () => {
    const units = [user('task'), stepUnit(0, 'a '.repeat(6_000)), stepUnit(1, 'b '.repeat(6_000)), stepUnit(2, 'c')];
    const r = summaryRequest(units, undefined, 10_000);
    expect([r.droppedResults, r.cut]).toEqual([1, false]);
    expect(r.prompt).toContain('[output left out of the summary request:');
    expect(r.prompt).toContain('b b b');
    expect(r.prompt).not.toContain('a a a');
  });
});

describe('summaryRequest: old tool outputs', () => {
  const log = (i: number): string =>
    Array.from({ length: 100 }, (_, k) => (k === 50 ? `FAILED test_${i}: boom` : `ok ${i}.${k}`)).join('\n');

  it('outputs beyond `protect` tokens of newer output are start + end with their error line; the newest whole', () => {
    const units = [user('task'), ...[0, 1, 2].map((i) => stepUnit(i, log(i)))];
    const r = summaryRequest(units, undefined, 60_000, 1);
    // the newest output crosses the line of 1 token too, as in opencode's prune: all three are shortened
    expect([r.shortenedResults, r.droppedResults, r.cut]).toEqual([3, 0, false]);
    const whole = summaryRequest(units, undefined, 60_000);
    expect([whole.shortenedResults, whole.prompt.includes(log(0)), whole.prompt.includes(log(2))]).toEqual([
      0,
      true,
      true,
    ]);
    for (const i of [0, 1, 2]) {
      expect(r.prompt).toContain(`## Tool result (bash)\n${log(i).split('\n').slice(0, 6).join('\n')}\n[… 87 of 100`);
      expect(r.prompt).toContain(`line 51: FAILED test_${i}: boom`);
      expect(r.prompt).not.toContain(`ok ${i}.30\n`);
    }
  });

  it('shortened outputs are still dropped oldest first when the request is over its budget', () => {
    const units = [user('task'), ...[0, 1, 2, 3].map((i) => stepUnit(i, `${'x '.repeat(3_000)}\n`.repeat(20)))];
    const r = summaryRequest(units, undefined, 2_000, 1);
    expect(r.tokens).toBeLessThanOrEqual(2_000);
    expect(r.shortenedResults).toBe(4);
    expect(r.droppedResults).toBeGreaterThan(0);
    expect(r.prompt).toContain('[output left out of the summary request:');
  });
});

describe('keptFromIndex', () => {
  it('keeps the most recent units within the budget, folds at least one, ignores the empty current step', () => {
    const units = [user('task'), ...[0, 1, 2, 3].map((i) => stepUnit(i, 'x '.repeat(4_000)))];
    const current: HistoryUnit = { id: 'prt_now', messageId: 'msg_a', role: 'assistant', messages: [] };
    expect(keptFromIndex([...units, current], 9_000)).toBe(3);
    expect(keptFromIndex([user('only')])).toBeUndefined();
    expect(keptFromIndex([user('only'), current])).toBeUndefined();
    expect(keptFromIndex([user('a'), stepUnit(0, 'x '.repeat(40_000))], 1_000)).toBe(1);
  });
});

describe('windows', () => {
  it('settings win, then the catalog by longest prefix, then a fallback that says so', () => {
    expect(windowFor('gpt-4o-mini', { contextWindow: 50_000 })).toMatchObject({ window: 50_000, source: 'settings' });
    expect(windowFor('claude-sonnet-4-5')).toMatchObject({ window: 200_000, source: 'catalog' });
    expect(windowFor('openai/gpt-4.1-mini')).toMatchObject({ window: 1_047_576, source: 'catalog' });
    expect(windowFor('my-local-model')).toMatchObject({ window: FALLBACK_WINDOW, source: 'fallback' });
    expect(compactionThreshold({ window: 200_000, outputReserve: 32_000 })).toBe(168_000);
    expect(compactionThreshold({ window: 200_000, outputReserve: 8_000 })).toBe(180_000);
  });
});
