/**
 * Provider protocol: a local HTTP server speaking the OpenAI-compatible streaming format (SSE chat completion
 * chunks with tool calls) drives sessions through the real provider code (@ai-sdk/openai-compatible), the real
 * loop, tools and store. Retry policy: 429/5xx before the stream is retried (at most 2), nothing after the
 * stream began; context-length errors are reported as such; fixtures/bugs/README.md B23 (arguments cut off by the output limit).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

type Reply = { status: number; json: unknown } | { sse: unknown[]; raw?: string[] };
let server: Server;
let replies: Reply[] = [];
let requests: { messages: { role: string; content: unknown; tool_calls?: unknown }[] }[] = [];
let h: Harness;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const text = (t: string, finish: string | null = null) => chunk({ content: t }, finish);
const toolCall = (id: string, name: string, args: string) =>
  chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] });

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (d: Buffer) => {
    body += d.toString();
  });
  req.on('end', () => {
    requests.push(JSON.parse(body));
    const reply = replies.shift() ?? { sse: [text('(no more replies)', 'stop')] };
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const c of reply.sse) res.write(`data: ${JSON.stringify(c)}\n\n`);
    for (const r of reply.raw ?? []) res.write(r);
    res.end('data: [DONE]\n\n');
  });
}

beforeEach(async () => {
  replies = [];
  requests = [];
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  h = await harness({ retry: { maxRetries: 2, baseMs: 5, capMs: 20 } });
  const port = (server.address() as AddressInfo).port;
  const saved = await h.svc.saveSettings({
    ...h.svc.getSettings(),
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }],
  });
  expect(saved.ok).toBe(true);
});

afterEach(async () => {
  await h.close();
  await new Promise<void>((r) => server.close(() => r()));
});

function toolMessages(i: number): string {
  return JSON.stringify((requests[i]?.messages ?? []).filter((m) => m.role === 'tool'));
}

describe('OpenAI-compatible provider against a local server', () => {
  it('streams text, runs a tool call, sends its result back, and ends the turn', async () => {
    writeFileSync(path.join(h.root, 'a.txt'), 'hello from disk\n');
    replies = [
      {
        sse: [
          text('Let me look. '),
          toolCall('call_1', 'read', '{"filePath":'),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
      { sse: [text('It says hello.', 'stop')] },
    ];
    const s = h.newSession();
    const deltas: string[] = [];
    h.svc.on((e) => {
      if (e.type === 'text.delta') deltas.push(e.delta);
    });
    const r = await h.svc.prompt(s, 'what is in a.txt?');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(requests).toHaveLength(2);
    expect(toolMessages(1)).toContain('hello from disk');
    expect(deltas.join('')).toBe('Let me look. It says hello.');
    const v = h.svc.getSession(s);
    const parts = v.ok ? (v.value.messages[1]?.parts ?? []) : [];
    expect(parts.map((p) => (p.type === 'tool' ? `tool:${p.tool}:${p.state}` : p.type))).toEqual([
      'step-start',
      'text',
      'tool:read:completed',
      'step-finish',
      'step-start',
      'text',
      'step-finish',
    ]);
  });

  it('retries a 429 before the stream began, then succeeds', async () => {
    replies = [
      { status: 429, json: { error: { message: 'rate limited', type: 'rate_limit' } } },
      { sse: [text('fine', 'stop')] },
    ];
    const s = h.newSession();
    const r = await h.svc.prompt(s, 'hi');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(requests).toHaveLength(2);
  });

  it('gives up after two retries of 5xx and reports provider_error', async () => {
    replies = [1, 2, 3].map(() => ({ status: 503, json: { error: { message: 'overloaded' } } }));
    const s = h.newSession();
    const r = await h.svc.prompt(s, 'hi');
    expect(r.ok && r.value.error?.code).toBe('provider_error');
    expect(r.ok && r.value.error?.data).toEqual({ status: 503, raw: expect.stringContaining('overloaded') });
    expect(r.ok && r.value.error?.message).toBe('The model provider had a server error (HTTP 503).');
    expect(requests).toHaveLength(3);
  });

  it('does not retry a 500 after the stream began; the partial text is kept', async () => {
    replies = [
      {
        sse: [text('partial answer')],
        raw: ['data: {"error":{"message":"Internal server error","type":"server_error","code":"500"}}\n\n'],
      },
    ];
    const s = h.newSession();
    const r = await h.svc.prompt(s, 'hi');
    expect(r.ok && r.value.error?.code).toBe('provider_error');
    expect(requests).toHaveLength(1);
    const v = h.svc.getSession(s);
    const texts = v.ok
      ? v.value.messages[1]?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)
      : [];
    expect(texts).toEqual(['partial answer']);
  });

  it('reports a context-length error clearly: one retry after trying to compact, then a typed error, no loop', async () => {
    const tooLong = {
      status: 400,
      json: {
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
          code: 'context_length_exceeded',
        },
      },
    };
    replies = [tooLong, tooLong, tooLong];
    const s = h.newSession();
    const r = await h.svc.prompt(s, 'hi');
    expect(r.ok && r.value.error?.code).toBe('context_length');
    // a lone user message has nothing older to fold: no summary request, the step is sent once more, then it stops
    expect(requests).toHaveLength(2);
  });

  it('B23: a write whose arguments were cut off by the output limit is not executed; model and user are told', async () => {
    replies = [
      {
        sse: [
          toolCall('call_w', 'write', '{"filePath":"big.txt","content":"line 1\\nline 2\\nli'),
          chunk({}, 'length'),
        ],
      },
      { sse: [text('I will split it.', 'stop')] },
    ];
    const s = h.newSession();
    const r = await h.svc.prompt(s, 'write big.txt');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(existsSync(path.join(h.root, 'big.txt'))).toBe(false);
    const v = h.svc.getSession(s);
    const tool = v.ok ? v.value.messages[1]?.parts.find((p) => p.type === 'tool') : undefined;
    expect(tool?.type === 'tool' && tool.state).toBe('error');
    expect(tool?.type === 'tool' && tool.error?.code).toBe('truncated');
    expect(toolMessages(1)).toContain('NOT executed');
  });

  it('B23: even arguments that happen to parse are not executed when the step hit the output limit', async () => {
    replies = [
      { sse: [toolCall('call_w', 'write', '{"filePath":"cut.txt","content":"first half"}'), chunk({}, 'length')] },
      { sse: [text('ok', 'stop')] },
    ];
    const s = h.newSession();
    await h.svc.prompt(s, 'write cut.txt');
    expect(existsSync(path.join(h.root, 'cut.txt'))).toBe(false);
  });
});
