/**
 * The journal's plan is written a step at a time (journal.ts `planText`): the bytes must be exactly
 * `JSON.stringify(plan)`, whatever the strings hold and with or without an intent.
 */
import { expect, test } from 'vitest';
import { planText, type Plan, type PlanStep } from './journal';

test('planText yields exactly JSON.stringify(plan), in pieces', () => {
  const steps: PlanStep[] = Array.from({ length: 3000 }, (_, i) => ({
    rel: `a/"b\\${i}/\u00e9\u{1f600}`,
    temp: i % 2 ? '' : `a/.t-${i}`,
    new: i % 3 ? { kind: 'file', oid: 'f'.repeat(40), size: -1 } : null,
    old: i % 5 ? null : { kind: 'dir' },
    made: i % 7 ? [] : ['a', 'a/"b'],
  }));
  for (const intent of [undefined, 'step-1'])
    for (const s of [steps, []]) {
      const plan: Plan = {
        version: 1,
        id: 'x',
        label: 'restore ,"steps":0',
        root: '/r',
        pid: 1,
        started: '',
        createdAt: '2026-01-01T00:00:00.000Z',
        steps: s,
        ...(intent !== undefined ? { intent } : {}),
      };
      const pieces = [...planText(plan)];
      expect(pieces.join('')).toBe(JSON.stringify(plan));
      if (s.length > 0) expect(pieces.length).toBeGreaterThan(s.length);
    }
});
