/**
 * Compaction through the real loop (service, SQLite store, snapshot store, bash children), with a mock model that
 * records every request: the trigger, the kept history, overflow (compact once, retry once, then a typed error),
 * stalls, undo (the next request is byte for byte the one sent without the compaction), and a 300-step session
 * with ~6 MB of test logs that never sends a request over the window.
 */
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../../shared/model';
import { harness, type Harness } from '../testing/fixtures';
import { allowBash, isSummary, requestTokens, sessionModel } from './compaction-kit';
import type { WindowSpec } from './windows';

let hs: Harness[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
});

async function open(): Promise<Harness> {
  const h = await harness();
  hs.push(h);
  await allowBash(h);
  return h;
}

const SMALL: WindowSpec = { window: 60_000, outputReserve: 0, source: 'settings' };
const HUGE: WindowSpec = { window: 10_000_000, outputReserve: 0, source: 'settings' };
const TASK = 'Make the test suite pass; do not touch tests/fixtures.';

function compactions(h: Harness, s: string): Extract<Part, { type: 'compaction' }>[] {
  const v = h.svc.getSession(s);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'compaction');
}

const tooLong = () =>
  new APICallError({
    message: "This model's maximum context length is 60000 tokens. However, your messages resulted in 61000 tokens.",
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 400,
    isRetryable: false,
  });

describe('compaction in the loop', () => {
  it('triggers at window − 20,000, keeps the recent history verbatim and the task word for word', async () => {
    const h = await open();
    const s = h.newSession();
    const model = sessionModel({ steps: Array.from({ length: 14 }, () => 150) });
    const r = await h.svc.runWithModel(s, model, TASK, 50, { spec: SMALL });
    expect(r.ok && r.value.finishReason).toBe('stop');
    const cs = compactions(h, s);
    expect(cs.length).toBeGreaterThanOrEqual(1);
    const c = cs[0] as Extract<Part, { type: 'compaction' }>;
    expect(c.trigger).toBe('auto');
    expect(c.tokensBefore).toBeGreaterThanOrEqual(SMALL.window - 20_000);
    expect(c.tokensAfter).toBeLessThan(c.tokensBefore / 2);
    const after = model.steps[model.steps.length - 1];
    const sent = JSON.stringify(after?.prompt);
    expect(sent).toContain(`<user-message>\\n${TASK}\\n</user-message>`);
    expect(sent).toContain('summary of');
    // the kept history starts at a whole step: its call and its result are both there
    for (const m of after?.prompt ?? [])
      if (m.role === 'tool')
        for (const p of m.content)
          if (p.type === 'tool-result') expect(sent).toContain(`"toolCallId":"${p.toolCallId}"`);
    for (const req of model.requests) expect(requestTokens(req)).toBeLessThanOrEqual(SMALL.window);
  });

  it('a context-length error: exactly one compaction and one retry; the retry answers', async () => {
    const h = await open();
    const s = h.newSession();
    await h.svc.runWithModel(s, sessionModel({ steps: [150, 150, 150] }), 'first task', 50, { spec: HUGE });
    const model = sessionModel({ steps: [], override: (k) => (k === 0 ? { error: tooLong() } : undefined) });
    const r = await h.svc.runWithModel(s, model, 'next', 50, { spec: HUGE });
    expect(r.ok && [r.value.finishReason, r.value.error]).toEqual(['stop', undefined]);
    expect(model.requests.map((q) => (isSummary(q) ? 'summary' : 'step'))).toEqual(['step', 'summary', 'step']);
    expect(compactions(h, s).map((c) => c.trigger)).toEqual(['overflow']);
  });

  it('a second context-length error is a typed error, and no third request is sent', async () => {
    const h = await open();
    const s = h.newSession();
    await h.svc.runWithModel(s, sessionModel({ steps: [150, 150, 150] }), 'first task', 50, { spec: HUGE });
    const model = sessionModel({ steps: [], override: () => ({ error: tooLong() }) });
    const r = await h.svc.runWithModel(s, model, 'next', 50, { spec: HUGE });
    expect(r.ok && r.value.error?.code).toBe('context_length');
    expect(r.ok && r.value.error?.message).toMatch(/still over the model's context window after compacting/);
    expect(model.requests.map((q) => (isSummary(q) ? 'summary' : 'step'))).toEqual(['step', 'summary', 'step']);
  });

  it('summaries that do not shrink: stalled twice → the turn stops with compaction_stalled', async () => {
    const h = await open();
    const s = h.newSession();
    // twice the request it summarises (which sends old outputs short): a summary as big as what it replaces
    const bloated = (o: Parameters<NonNullable<Parameters<typeof sessionModel>[0]['summary']>>[0]) =>
      JSON.stringify(o.prompt).repeat(2).slice(0, 200_000);
    const model = sessionModel({ steps: Array.from({ length: 40 }, () => 150), summary: bloated });
    const r = await h.svc.runWithModel(s, model, TASK, 100, { spec: SMALL });
    expect(r.ok && r.value.error?.code).toBe('compaction_stalled');
    expect(compactions(h, s)).toHaveLength(2);
    const kinds = model.requests.map((q) => (isSummary(q) ? 'summary' : 'step'));
    expect(kinds.filter((k) => k === 'summary')).toHaveLength(2);
    expect(kinds[kinds.length - 1]).toBe('summary'); // nothing is sent after the second stall
  });

  it('undo: the next request equals, byte for byte, the one a session that never compacted sends', async () => {
    const [a, b] = [await open(), await open()];
    const [sa, sb] = [a.newSession(), b.newSession()];
    const steps = Array.from({ length: 14 }, () => 150);
    await a.svc.runWithModel(sa, sessionModel({ steps }), TASK, 50, { spec: SMALL });
    await b.svc.runWithModel(sb, sessionModel({ steps }), TASK, 50, { spec: HUGE });
    const cs = compactions(a, sa);
    expect(cs.length).toBeGreaterThanOrEqual(1);
    for (const c of cs) expect(a.svc.undoCompaction(sa, c.id).ok).toBe(true);
    const [ma, mb] = [sessionModel({ steps: [] }), sessionModel({ steps: [] })];
    await a.svc.runWithModel(sa, ma, 'and now the docs', 50, { spec: HUGE });
    await b.svc.runWithModel(sb, mb, 'and now the docs', 50, { spec: HUGE });
    // the two sessions differ only in where they run (the baseline names each project's folder)
    const sent = (h: Harness, m: typeof ma): string =>
      JSON.stringify(m.requests[0]?.prompt).replaceAll(h.root, '<project>').replaceAll(h.dataDir, '<data>');
    expect(sent(a, ma)).toBe(sent(b, mb));
    expect(compactions(a, sa).every((c) => c.undone === true)).toBe(true);
    expect(a.svc.undoCompaction(sa, 'prt_missing').ok).toBe(false);
  });
});
