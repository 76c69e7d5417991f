/**
 * The loop's step shape and stop: each step is step-start → model output → tools → step-finish (+ patch when a
 * tool changed files); a stop while a tool runs marks it `interrupted` (the rest is not run), a stop while the
 * model streams keeps the partial text; the session is idle afterwards and can run the next turn.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import { harness, scripted, untilAborted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('agent loop', () => {
  it('records steps with snapshots and a patch part naming the files the tools wrote', async () => {
    h = await harness();
    const s = h.newSession();
    const events: CoreEvent[] = [];
    h.svc.on((e) => events.push(e));
    const r = await h.svc.runWithModel(
      s,
      scripted([[{ callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } }]]),
      'go',
    );
    expect(r.ok && [r.value.finishReason, r.value.steps]).toEqual(['stop', 2]);
    const v = h.svc.getSession(s);
    const parts = v.ok ? (v.value.messages[1]?.parts ?? []) : [];
    expect(parts.map((p) => p.type)).toEqual([
      'step-start',
      'tool',
      'step-finish',
      'patch',
      'step-start',
      'text',
      'step-finish',
    ]);
    const [start, , finish, patch] = parts;
    expect(start?.type === 'step-start' && finish?.type === 'step-finish' && start.snapshot !== finish.snapshot).toBe(
      true,
    );
    expect(
      patch?.type === 'patch' && start?.type === 'step-start' && [patch.hash === start.snapshot, patch.files],
    ).toEqual([true, ['a.txt']]);
    expect(events.filter((e) => e.type === 'session.state').map((e) => e.type === 'session.state' && e.state)).toEqual([
      'busy',
      'idle',
    ]);
    expect(events.some((e) => e.type === 'snapshot.added')).toBe(true);
    expect(v.ok && v.value.session.title).toBe('go');
  });

  it('stop while a tool runs: the tool is interrupted, no further step runs, the session goes idle', async () => {
    h = await harness();
    await h.svc.saveSettings({
      ...h.svc.getSettings(),
      permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
    });
    const s = h.newSession();
    h.svc.on((e) => {
      if (e.type === 'part.updated' && e.part.type === 'tool' && e.part.tool === 'bash' && e.part.state === 'running')
        setTimeout(() => h?.svc.stop(s), 100);
    });
    const model = scripted([
      [
        { callId: 'b', toolName: 'bash', input: { command: 'sleep 5' } },
        { callId: 'w', toolName: 'write', input: { filePath: 'late.txt', content: 'x' } },
      ],
    ]);
    const t0 = Date.now();
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(r.ok && r.value.finishReason).toBe('aborted');
    const v = h.svc.getSession(s);
    const tools = v.ok ? (v.value.messages[1]?.parts.filter((p) => p.type === 'tool') ?? []) : [];
    expect(tools.map((p) => p.type === 'tool' && [p.tool, p.state, p.error?.code])).toEqual([
      ['bash', 'error', 'interrupted'],
    ]);
    expect(existsSync(path.join(h.root, 'late.txt'))).toBe(false);
    expect(h.svc.isBusy(s)).toBe(false);
    const next = await h.svc.runWithModel(s, scripted([[]]), 'again');
    expect(next.ok && next.value.finishReason).toBe('stop');
  });

  it('stop while the model streams keeps the partial text', async () => {
    h = await harness();
    const s = h.newSession();
    h.svc.on((e) => {
      if (e.type === 'text.delta') setTimeout(() => h?.svc.stop(s), 50);
    });
    const r = await h.svc.runWithModel(s, untilAborted(), 'go');
    expect(r.ok && r.value.finishReason).toBe('aborted');
    const v = h.svc.getSession(s);
    const texts = v.ok
      ? v.value.messages[1]?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)
      : [];
    expect(texts).toEqual(['Working on it']);
    expect(v.ok && v.value.messages[1]?.parts.map((p) => p.type)).toEqual(['step-start', 'text', 'step-finish']);
  });

  it('refuses a second turn while one runs (busy)', async () => {
    h = await harness();
    const s = h.newSession();
    const busy = new Promise<void>((resolve) => {
      const off = h?.svc.on((e) => {
        if (e.type === 'session.state' && e.sessionId === s && e.state === 'busy') {
          off?.();
          resolve();
        }
      });
    });
    const first = h.svc.runWithModel(s, untilAborted(), 'one');
    await busy; // the turn runs (an event, not a clock)
    const second = await h.svc.runWithModel(s, scripted([[]]), 'two');
    expect(!second.ok && second.error.code).toBe('busy');
    h.svc.stop(s);
    await first;
  });
});
