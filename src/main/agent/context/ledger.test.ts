/**
 * The request ledger against what the model was sent: a scripted OpenAI-compatible server on 127.0.0.1 records
 * every request body; the ledger must hold the same system text and messages, per step, with the change against
 * the request before; the mock model's reported usage lands in the ledger and in the context meter's number.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../providers';
import { scriptedOpenAI } from '../testing/openai-server';
import type { ScriptedServer } from '../testing/openai-server';
import { harness } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { mockModel } from './context-test-kit';
import { messageText } from './request-text';

let h: Harness | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

const SENTINEL = 'SENTINEL-7c1e: run `make check` before you finish.';

describe('request ledger', () => {
  it('records each request exactly as the provider received it, with the step and the change', async () => {
    const hh = (h = await harness());
    writeFileSync(path.join(hh.root, 'AGENTS.md'), `# Rules\n${SENTINEL}\n`);
    writeFileSync(path.join(h.root, 'a.txt'), 'alpha\n');
    server = await scriptedOpenAI([{ tool: 'read', args: { filePath: 'a.txt' } }, { text: 'read it' }]);
    const model = createModel(
      { id: 'local', kind: 'openai-compatible', baseURL: server.baseURL, model: 'm' },
      undefined,
    );
    if (!model.ok) throw new Error(model.error.message);
    const sessionId = h.newSession();
    const r = await h.svc.runWithModel(sessionId, model.value, 'look at a.txt');
    expect(r.ok && r.value.finishReason).toBe('stop');

    const ledger = h.svc.context.ledger;
    expect(server.requests.length).toBe(2);
    expect(ledger.count(sessionId)).toBe(2);
    for (let i = 0; i < 2; i++) {
      const body = server.requests[i]?.body.messages ?? [];
      const entry = ledger.entry(sessionId, i + 1);
      expect(entry?.step).toBe(i + 1);
      expect(body[0]).toEqual({ role: 'system', content: JSON.parse(entry?.system.json ?? '""') });
      expect(body[0]?.content).toContain(SENTINEL);
      expect(body.length).toBe(1 + (entry?.messages.length ?? 0));
    }
    // the second request is the first plus what was appended, on the wire too
    const [first, second] = server.requests.map((q) => q.body.messages ?? []);
    expect(second?.slice(0, first?.length)).toEqual(first);

    const view = h.svc.context.view(sessionId, 2);
    if (!view.ok) throw new Error(view.error.message);
    const step = view.value.step;
    expect(step?.change).toMatchObject({
      previous: 1,
      systemChanged: false,
      toolsChanged: false,
      keptMessages: 1,
      droppedMessages: 0,
      addedMessages: 2,
    });
    expect(step?.change?.sharedPrefix).toBeGreaterThan(0.9);
    expect(step?.change?.sharedPrefix).toBeLessThan(1);
    const t = step?.tokens;
    expect(t && t.system > 0 && t.instructions > 0 && t.tools > 0 && t.history > 0 && t.toolResults > 0).toBe(true);
    expect(t?.total).toBe(
      (t?.system ?? 0) + (t?.instructions ?? 0) + (t?.tools ?? 0) + (t?.history ?? 0) + (t?.toolResults ?? 0),
    );
    expect(step?.window).toEqual({ tokens: 128_000, source: 'fallback' });
    expect(messageText(step?.request.messages[2])).toContain('alpha');
    expect(view.value.sources.find((s) => s.key === `level:${hh.root}`)).toMatchObject({
      present: true,
      bytes: Buffer.byteLength(`# Rules\n${SENTINEL}\n`),
      cutBytes: 0,
    });

    const missing = h.svc.context.view(sessionId, 3);
    expect(missing.ok ? 'ok' : missing.error.code).toBe('invalid_input');
    expect(missing.ok ? '' : missing.error.hint).toBe('Pick a step from 1 to 2.');
  });

  it("stores the provider's usage and uses it for the tokens in use", async () => {
    h = await harness();
    const model = mockModel([
      { tool: 'list', args: {}, usage: { input: 2100, cached: 1800, output: 40 } },
      { text: 'ok', usage: { input: 2300, cached: 2100, output: 12 } },
    ]);
    const sessionId = h.newSession();
    const r = await h.svc.runWithModel(sessionId, model, 'list the files');
    expect(r.ok).toBe(true);
    expect(h.svc.context.ledger.entry(sessionId, 1)?.usage).toEqual({ input: 2100, cachedInput: 1800, output: 40 });
    const last = h.svc.context.view(sessionId);
    if (!last.ok) throw new Error(last.error.message);
    expect(last.value.step?.step).toBe(2);
    expect(last.value.step?.usage).toEqual({ input: 2300, cachedInput: 2100, output: 12 });
    expect(last.value.step?.inUse).toBe(2312);
  });

  it('records every request the provider refused, without usage: the one context-length retry, never a third', async () => {
    h = await harness();
    const sessionId = h.newSession();
    const refusing = mockModel([]);
    let sent = 0;
    refusing.doStream = () => {
      sent++;
      return Promise.reject(Object.assign(new Error('maximum context length exceeded'), {}));
    };
    const r = await h.svc.runWithModel(sessionId, refusing, 'hello');
    expect(r.ok && r.value.finishReason).toBe('error');
    expect(r.ok && r.value.error?.code).toBe('context_length');
    // a context-length error is retried once (compaction-rules.ts; one user message has nothing to fold)
    expect(sent).toBe(2);
    expect(h.svc.context.ledger.count(sessionId)).toBe(2);
    expect(h.svc.context.ledger.entry(sessionId, 1)?.usage).toBeUndefined();
    expect(h.svc.context.ledger.entry(sessionId, 2)?.usage).toBeUndefined();
  });
});
