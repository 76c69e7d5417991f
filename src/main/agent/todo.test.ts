/**
 * The todo list through the real loop and store: kept across steps and turns (todoread answers what todowrite
 * wrote), one entry in progress at most (refused otherwise, the list unchanged), following revert and unrevert,
 * and re-sent right after each compaction's summary from the store (the list in force then, not the summary's
 * prose) — each as the model reads it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TodoItem } from '../../shared/todo';
import { harness } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { stepModel, toolResults } from './testing/step-model';
import { TODO_RESEND_HEADER, todoResendMessage } from './todo-resend';
import { todoText } from '../../shared/todo';
import { allowBash, isSummary, sessionModel } from './context/compaction-kit';
import { messageText } from './context/request-text';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const A: TodoItem[] = [
  { content: 'read the failing test', status: 'done' },
  { content: 'fix the parser', status: 'in_progress' },
  { content: 'run the tests', status: 'pending' },
];
const B: TodoItem[] = [
  { content: 'read the failing test', status: 'done' },
  { content: 'fix the parser', status: 'done' },
  { content: 'run the tests', status: 'cancelled' },
];
const A_TEXT = 'Todo list (2 of 3 open):\n[x] read the failing test\n[>] fix the parser\n[ ] run the tests';

const write = (todos: TodoItem[]) => ({ calls: [{ toolName: 'todowrite', input: { todos } }] });
const read = { calls: [{ toolName: 'todoread', input: {} }] };

describe('todo list', () => {
  it('is kept across steps and turns; todoread answers what todowrite wrote', async () => {
    h = await harness();
    const s = h.newSession();
    const first = stepModel([write(A), read, { text: 'working' }]);
    await h.svc.runWithModel(s, first.model, 'fix it');
    expect(toolResults(first.requests[2] as never).map((t) => t.text)).toEqual([A_TEXT, A_TEXT]);
    expect(h.svc.todos(s)).toEqual(A);
    const second = stepModel([read, { text: 'still there' }]);
    await h.svc.runWithModel(s, second.model, 'go on');
    expect(toolResults(second.requests[1] as never).at(-1)?.text).toBe(A_TEXT);
  });

  it('refuses two entries in progress; the list in force stays as it was', async () => {
    h = await harness();
    const s = h.newSession();
    const two = A.map((t) => ({ ...t, status: 'in_progress' as const }));
    const m = stepModel([write(A), write(two), { text: 'ok' }]);
    await h.svc.runWithModel(s, m.model, 'go');
    expect(toolResults(m.requests[2] as never)[1]?.text).toContain('At most one entry may be in_progress at a time.');
    expect(h.svc.todos(s)).toEqual(A);
  });

  it('follows revert and unrevert', async () => {
    h = await harness();
    const s = h.newSession();
    await h.svc.runWithModel(s, stepModel([write(A), { text: 'a' }]).model, 'one');
    const two = await h.svc.runWithModel(s, stepModel([write(B), { text: 'b' }]).model, 'two');
    expect(h.svc.todos(s)).toEqual(B);
    const userTwo = two.ok ? two.value.userMessageId : '';
    expect((await h.svc.revert(s, userTwo)).ok).toBe(true);
    expect(h.svc.todos(s)).toEqual(A);
    expect((await h.svc.unrevert(s)).ok).toBe(true);
    expect(h.svc.todos(s)).toEqual(B);
    await h.svc.revert(s, userTwo);
    const after = stepModel([read, { text: 'back to A' }]);
    await h.svc.runWithModel(s, after.model, 'again');
    expect(toolResults(after.requests[1] as never).at(-1)?.text).toBe(A_TEXT);
  });

  it('after revert then unrevert, the model reads the later list again', async () => {
    h = await harness();
    const s = h.newSession();
    await h.svc.runWithModel(s, stepModel([write(A), { text: 'a' }]).model, 'one');
    const two = await h.svc.runWithModel(s, stepModel([write(B), { text: 'b' }]).model, 'two');
    expect((await h.svc.revert(s, two.ok ? two.value.userMessageId : '')).ok).toBe(true);
    expect((await h.svc.unrevert(s)).ok).toBe(true);
    const after = stepModel([read, { text: 'back to B' }]);
    await h.svc.runWithModel(s, after.model, 'again');
    expect(toolResults(after.requests[1] as never).at(-1)?.text).toBe(
      'Todo list (0 of 3 open):\n[x] read the failing test\n[x] fix the parser\n[-] run the tests',
    );
  });

  it('renders the list to re-send after a compaction (none when empty)', async () => {
    h = await harness();
    const s = h.newSession();
    expect(todoResendMessage(h.svc.store.messages(s))).toBeUndefined();
    await h.svc.runWithModel(s, stepModel([write(A), { text: 'a' }]).model, 'one');
    expect(todoResendMessage(h.svc.store.messages(s))).toEqual({
      role: 'user',
      content: [{ type: 'text', text: `${TODO_RESEND_HEADER}\n${A_TEXT}` }],
    });
  });

  it('is re-sent right after the summary of every compaction: the list in force then, from the store', async () => {
    h = await harness();
    await allowBash(h);
    const s = h.newSession();
    const WRITE_B = 12; // step request 12 writes list B (after the first compaction)
    const model = sessionModel({
      steps: Array.from({ length: 30 }, () => 150),
      summary: () => '## Task and user instructions\nsummary prose with no todo list in it',
      override: (k) => (k === 0 ? write(A) : k === WRITE_B ? write(B) : undefined),
    });
    const r = await h.svc.runWithModel(s, model, 'work through the list', 60, {
      spec: { window: 60_000, outputReserve: 0, source: 'settings' },
    });
    expect(r.ok && [r.value.finishReason, r.value.error]).toEqual(['stop', undefined]);
    let compactions = 0;
    let stepNo = -1;
    const seen = new Set<string>();
    for (const req of model.requests) {
      if (isSummary(req)) {
        compactions++;
        continue;
      }
      stepNo++;
      if (compactions === 0) continue;
      const texts = req.prompt.filter((m) => m.role === 'user').map(messageText);
      expect(texts[0]).toContain('<summary>');
      const inForce = stepNo > WRITE_B ? B : A;
      expect(texts[1], `step request ${stepNo}`).toBe(`${TODO_RESEND_HEADER}\n${todoText(inForce)}`);
      expect(texts.filter((t) => t.startsWith(TODO_RESEND_HEADER))).toHaveLength(1);
      seen.add(stepNo > WRITE_B ? 'B' : 'A');
    }
    expect(compactions).toBeGreaterThanOrEqual(2);
    expect([...seen].sort()).toEqual(['A', 'B']);
  });
});
