/**
 * Runaway loops stopped by rule (loop-guard.ts), through the real loop, store and tools, with every permission set
 * to allow: identical calls → notice at 3, stop at 5 (`loop_detected`, the 5th never runs); one tool failing with
 * varying input → suspended at 3, other tools go on; the last step keeps the tool list, allows no call, refuses a
 * call sent anyway, and its text answer arrives; the per-turn tool-call and token budgets stop a turn.
 * Each assertion is on what the scripted model was sent and what the store holds.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { harness } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { offeredTools, stepModel, toolResults } from './testing/step-model';
import type { ScriptedStep } from './testing/step-model';
import { LAST_STEP_REMINDER } from './loop';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ALLOW_ALL = [{ permission: '*' as const, pattern: '*', action: 'allow' as const }];

async function allowAll(extra: Record<string, unknown> = {}): Promise<Harness> {
  const made = await harness();
  const saved = await made.svc.saveSettings({ ...made.svc.getSettings(), permissions: ALLOW_ALL, ...extra });
  if (!saved.ok) throw new Error(saved.error.message);
  return made;
}

function toolParts(hh: Harness, sessionId: string): Extract<Part, { type: 'tool' }>[] {
  const v = hh.svc.getSession(sessionId);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages
    .flatMap((m) => m.parts)
    .filter((p): p is Extract<Part, { type: 'tool' }> => p.type === 'tool');
}

const call = (toolName: string, input: unknown): ScriptedStep => ({ calls: [{ toolName, input }] });

describe('runaway loops', () => {
  it('identical bash call: runs with a notice at 3 and 4, the 5th is refused and the turn stops (loop_detected)', async () => {
    h = await allowAll();
    const s = h.newSession();
    writeFileSync(path.join(h.root, 'count.txt'), '');
    const same = call('bash', { command: 'echo x >> count.txt', description: 'count' });
    const { model, requests } = stepModel([same, same, same, same, same, same]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && [r.value.finishReason, r.value.error?.code, r.value.steps]).toEqual([
      'loop-detected',
      'loop_detected',
      5,
    ]);
    const tools = toolParts(h, s);
    expect(tools.map((t) => [t.state, t.error?.code ?? null])).toEqual([
      ['completed', null],
      ['completed', null],
      ['completed', null],
      ['completed', null],
      ['error', 'loop_detected'],
    ]);
    // the 5th call never ran: four lines, not five
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(h.root, 'count.txt'), 'utf8')).toBe('x\nx\nx\nx\n');
    const seen = toolResults(requests[4] as never).map((t) => t.text.includes('Notice: you have made this exact call'));
    expect(seen).toEqual([false, false, true, true]);
    expect(requests).toHaveLength(5);
  });

  it('keys in another order are the same call; a different call in between starts the count again', async () => {
    h = await allowAll();
    const s = h.newSession();
    writeFileSync(path.join(h.root, 'a.txt'), 'a\n');
    const a1 = call('read', { filePath: 'a.txt', offset: 1 });
    const a2 = call('read', { offset: 1, filePath: 'a.txt' });
    const other = call('list', { path: '.' });
    const { model, requests } = stepModel([a1, a2, other, a1, a2, a1, { text: 'ok' }]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && r.value.finishReason).toBe('stop');
    const last = toolResults(requests[6] as never).map((t) => t.text.includes('Notice: you have made'));
    expect(last).toEqual([false, false, false, false, false, true]);
  });

  it('a tool failing 3 times with different inputs is suspended for the turn; other tools go on', async () => {
    h = await allowAll();
    const s = h.newSession();
    const { model, requests } = stepModel([
      call('read', { filePath: 'missing1.txt' }),
      call('read', { filePath: 'missing2.txt' }),
      call('read', { filePath: 'missing3.txt' }),
      call('read', { filePath: 'missing4.txt' }),
      call('list', { path: '.' }),
      { text: 'I could not find the files.' },
    ]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && r.value.finishReason).toBe('stop');
    const tools = toolParts(h, s);
    expect(tools.map((t) => [t.tool, t.error?.code ?? 'ok'])).toEqual([
      ['read', 'file_not_found'],
      ['read', 'file_not_found'],
      ['read', 'file_not_found'],
      ['read', 'tool_suspended'],
      ['list', 'ok'],
    ]);
    const results = toolResults(requests[5] as never);
    expect(results[2]?.text).toContain('Notice: read is suspended for the rest of this turn because it failed 3 times');
    expect(results[3]?.text).toMatch(/^Error \(tool_suspended\): Not run: read is suspended for this turn/);
    // the next turn starts afresh: read works again
    const next = stepModel([call('read', { filePath: 'missing5.txt' }), { text: 'no' }]);
    await h.svc.runWithModel(s, next.model, 'again');
    expect(toolParts(h, s).at(-1)?.error?.code).toBe('file_not_found');
  });

  it('the same failing input repeated does not suspend; it is the repetition rule that stops it', async () => {
    h = await allowAll();
    const s = h.newSession();
    const same = call('read', { filePath: 'nope.txt' });
    const { model } = stepModel([same, same, same, same, same]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && r.value.finishReason).toBe('loop-detected');
    expect(toolParts(h, s).map((t) => t.error?.code)).toEqual([
      'file_not_found',
      'file_not_found',
      'file_not_found',
      'file_not_found',
      'loop_detected',
    ]);
  });

  it('last step: same tools offered, tool choice none, the reminder last; a call there is refused, the text arrives', async () => {
    h = await allowAll();
    const s = h.newSession();
    writeFileSync(path.join(h.root, 'a.txt'), 'a\n');
    const { model, requests } = stepModel([
      call('read', { filePath: 'a.txt' }),
      {
        text: 'Done so far: read a.txt. Left: nothing.',
        calls: [{ toolName: 'write', input: { filePath: 'b.txt', content: 'b' } }],
      },
    ]);
    const r = await h.svc.runWithModel(s, model, 'go', 2);
    expect(r.ok && r.value.error).toBe(undefined);
    expect(r.ok && [r.value.finishReason, r.value.steps]).toEqual(['max-steps', 2]);
    const [first, final] = requests;
    expect(first?.toolChoice).toEqual({ type: 'auto' });
    expect(final?.toolChoice).toEqual({ type: 'none' });
    expect(JSON.stringify(final?.tools)).toBe(JSON.stringify(first?.tools));
    expect(offeredTools(final as never)).toContain('write');
    const lastMessage = final?.prompt.at(-1);
    expect(lastMessage).toEqual({ role: 'user', content: [{ type: 'text', text: LAST_STEP_REMINDER }] });
    const tools = toolParts(h, s);
    expect(tools.map((t) => [t.tool, t.error?.code ?? 'ok'])).toEqual([
      ['read', 'ok'],
      ['write', 'step_limit'],
    ]);
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(h.root, 'b.txt'))).toBe(false);
    const v = h.svc.getSession(s);
    const texts = v.ok ? v.value.messages[1]?.parts.filter((p) => p.type === 'text') : [];
    expect(texts?.map((p) => (p as { text: string }).text)).toEqual(['Done so far: read a.txt. Left: nothing.']);
    // the reminder is not stored: the next turn's history does not carry it
    const next = stepModel([{ text: 'hi' }]);
    await h.svc.runWithModel(s, next.model, 'again');
    expect(JSON.stringify(next.requests[0]?.prompt)).not.toContain('last step of this turn');
  });

  it('last step answered in text ends the turn normally', async () => {
    h = await allowAll();
    const s = h.newSession();
    const { model } = stepModel([call('list', { path: '.' }), { text: 'Summary.' }]);
    const r = await h.svc.runWithModel(s, model, 'go', 2);
    expect(r.ok && [r.value.finishReason, r.value.steps]).toEqual(['stop', 2]);
  });

  it('tool-call budget: the first call past it is refused and the turn stops (budget)', async () => {
    h = await allowAll({ limits: { maxToolCallsPerTurn: 2 } });
    const s = h.newSession();
    const { model } = stepModel([
      call('list', { path: '.' }),
      call('glob', { pattern: '*' }),
      call('list', { path: 'x' }),
      { text: 'never' },
    ]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && [r.value.finishReason, r.value.error?.code]).toEqual(['budget', 'budget_exceeded']);
    expect(r.ok && r.value.error?.message).toBe('The turn used its budget of 2 tool calls; this call was not run.');
    expect(toolParts(h, s).map((t) => t.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'budget_exceeded']);
  });

  it('token budget: reported usage past it stops the turn after the step; off by default', async () => {
    h = await allowAll({ limits: { maxTokensPerTurn: 1000 } });
    const s = h.newSession();
    const used = { input: 400, output: 200 };
    const { model, requests } = stepModel([
      { ...call('list', { path: '.' }), tokens: used },
      { ...call('glob', { pattern: '*' }), tokens: used },
      { text: 'never', tokens: used },
    ]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && [r.value.finishReason, r.value.error?.code, r.value.error?.data]).toEqual([
      'budget',
      'budget_exceeded',
      { tokens: 1200, budget: 1000 },
    ]);
    expect(requests).toHaveLength(2);
    await h.svc.saveSettings({ ...h.svc.getSettings(), limits: undefined });
    const s2 = h.newSession();
    const many = stepModel([
      { ...call('list', { path: '.' }), tokens: { input: 1e6, output: 1e6 } },
      { text: 'fine', tokens: { input: 1e6, output: 1e6 } },
    ]);
    const r2 = await h.svc.runWithModel(s2, many.model, 'go');
    expect(r2.ok && r2.value.finishReason).toBe('stop');
  });

  it('with every permission kind allowed by its own rule: identical writes stop at 5, failing edits are suspended at 3', async () => {
    const kinds = ['read', 'edit', 'bash', 'external_directory', 'webfetch', 'mcp'] as const;
    h = await harness();
    const saved = await h.svc.saveSettings({
      ...h.svc.getSettings(),
      permissions: kinds.map((permission) => ({ permission, pattern: '*', action: 'allow' as const })),
    });
    expect(saved.ok).toBe(true);
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    const same = call('write', { filePath: 'w.txt', content: 'w\n' });
    const s = h.newSession();
    const first = stepModel([same, same, same, same, same, { text: 'never' }]);
    const r = await h.svc.runWithModel(s, first.model, 'go');
    expect(r.ok && [r.value.finishReason, r.value.error?.code]).toEqual(['loop-detected', 'loop_detected']);
    expect(first.requests).toHaveLength(5);
    expect(toolParts(h, s).map((t) => t.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'loop_detected']);
    const s2 = h.newSession();
    const edits = ['beta', 'gamma', 'delta', 'epsilon'].map((w) =>
      call('edit', { filePath: 'a.txt', oldString: w, newString: 'x' }),
    );
    const second = stepModel([
      call('read', { filePath: 'a.txt' }),
      ...edits,
      call('list', { path: '.' }),
      { text: 'ok' },
    ]);
    const r2 = await h.svc.runWithModel(s2, second.model, 'go');
    expect(r2.ok && r2.value.finishReason).toBe('stop');
    expect(toolParts(h, s2).map((t) => [t.tool, t.error?.code ?? 'ok'])).toEqual([
      ['read', 'ok'],
      ['edit', 'not_found'],
      ['edit', 'not_found'],
      ['edit', 'not_found'],
      ['edit', 'tool_suspended'],
      ['list', 'ok'],
    ]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(h.root, 'a.txt'), 'utf8')).toBe('alpha\n');
  });
});
