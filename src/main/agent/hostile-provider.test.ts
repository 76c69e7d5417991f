/**
 * A provider that misbehaves (a tool failure or a provider error is a result, never a crash; stop
 * works): a model that hangs and ignores the abort signal (before answering, or mid-stream), and streams of
 * garbage — malformed tool-call JSON, an unknown tool, arguments of the wrong shape, a thrown non-Error, a stream
 * that ends without a finish. Each turn ends as data, the session goes idle, and the next turn runs. Also a stop
 * while a permission question waits.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, scripted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function model(doStream: LanguageModelV3['doStream']): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'hostile',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream,
  };
}

/** A stream of the given parts, then (optionally) nothing more, ever. */
function streamOf(parts: LanguageModelV3StreamPart[], hang = false): ReturnType<LanguageModelV3['doStream']> {
  return Promise.resolve({
    stream: new ReadableStream<LanguageModelV3StreamPart>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        if (!hang) c.close();
      },
    }),
  });
}

const finish: LanguageModelV3StreamPart = {
  type: 'finish',
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  },
};

async function stoppedWithin(x: Harness, session: string, m: LanguageModelV3, ms: number): Promise<void> {
  const t0 = Date.now();
  // Stop once the turn runs (an event, not a clock: on a busy machine the turn may start later than any delay).
  const off = x.svc.on((e) => {
    if (e.type === 'session.state' && e.sessionId === session && e.state === 'busy')
      setTimeout(() => x.svc.stop(session), 50);
  });
  const r = await x.svc.runWithModel(session, m, 'go');
  off();
  expect(Date.now() - t0).toBeLessThan(ms);
  expect(r.ok && r.value.finishReason).toBe('aborted');
  expect(x.svc.isBusy(session)).toBe(false);
  const next = await x.svc.runWithModel(session, scripted([[]]), 'again');
  expect(next.ok && next.value.finishReason).toBe('stop');
}

describe('a hostile provider', () => {
  it('stop ends a turn whose model never answers and ignores the abort signal', async () => {
    h = await harness();
    await stoppedWithin(
      h,
      h.newSession(),
      model(() => new Promise(() => {})),
      3000,
    );
  });

  it('stop ends a turn whose stream hangs mid-text and ignores the abort signal', async () => {
    h = await harness();
    const s = h.newSession();
    await stoppedWithin(
      h,
      s,
      model(() =>
        streamOf(
          [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'half' },
          ],
          true,
        ),
      ),
      3000,
    );
    const v = h.svc.getSession(s);
    const texts = v.ok
      ? v.value.messages[1]?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)
      : [];
    expect(texts).toEqual(['half']);
  });

  it('garbage tool calls become tool errors the model reads; the turn ends as data', async () => {
    h = await harness();
    const s = h.newSession();
    let calls = 0;
    const garbage = model(() => {
      calls++;
      if (calls > 1)
        return streamOf([
          { type: 'stream-start', warnings: [] },
          { ...finish, finishReason: { unified: 'stop', raw: 'stop' } },
        ]);
      return streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'tool-call', toolCallId: 'a', toolName: 'write', input: '{"filePath": "x.txt", "content": ' },
        { type: 'tool-call', toolCallId: 'b', toolName: 'no_such_tool', input: '{}' },
        { type: 'tool-call', toolCallId: 'c', toolName: 'write', input: '{"filePath": 42}' },
        finish,
      ]);
    });
    const r = await h.svc.runWithModel(s, garbage, 'go');
    expect(r.ok).toBe(true);
    expect(h.svc.isBusy(s)).toBe(false);
    const v = h.svc.getSession(s);
    const tools = v.ok ? (v.value.messages[1]?.parts.filter((p) => p.type === 'tool') ?? []) : [];
    expect(tools.every((p) => p.type === 'tool' && p.state === 'error')).toBe(true);
  });

  it('a stream that throws a non-Error or ends without a finish ends the turn with an error result', async () => {
    h = await harness();
    const s = h.newSession();
    const throwing = model(() =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: 'par' });
            c.error('a string, not an Error');
          },
        }),
      }),
    );
    const r = await h.svc.runWithModel(s, throwing, 'go');
    expect(r.ok && r.value.finishReason).toBe('error');
    const cut = await h.svc.runWithModel(
      s,
      model(() =>
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'x' },
        ]),
      ),
      'go',
    );
    expect(cut.ok).toBe(true);
    expect(h.svc.isBusy(s)).toBe(false);
  });
});

describe('stop while a permission question waits', () => {
  it('the question is withdrawn, the tool does not run, the turn ends aborted and the session is idle', async () => {
    h = await harness();
    const x = h;
    const s = x.newSession();
    x.svc.on((e) => {
      if (e.type === 'permission.asked') setTimeout(() => x.svc.stop(s), 50);
    });
    const r = await x.svc.runWithModel(
      s,
      scripted([[{ callId: 'b', toolName: 'bash', input: { command: 'echo ran > ran.txt' } }]]),
      'go',
    );
    expect(r.ok && r.value.finishReason).toBe('aborted');
    expect(x.svc.pendingPermissions(s)).toEqual([]);
    expect(x.svc.isBusy(s)).toBe(false);
    const v = x.svc.getSession(s);
    const tools = v.ok ? (v.value.messages[1]?.parts.filter((p) => p.type === 'tool') ?? []) : [];
    expect(tools.map((p) => p.type === 'tool' && p.state)).toEqual(['error']);
    expect(existsSync(path.join(x.root, 'ran.txt'))).toBe(false);
  });
});
