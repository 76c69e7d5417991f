/**
 * Test support: a scripted OpenAI-compatible chat-completions server on 127.0.0.1. Every request is recorded (the
 * Authorization header and the JSON body) so a test can assert exactly what the provider client sent; each
 * request is answered with the next scripted reply — an SSE stream (text, or one tool call) when the request asks
 * to stream, else one JSON completion — and with plain "done" once the script is used up.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: streamed text, or one tool call with its JSON arguments. */
export type ScriptedReply = { text: string } | { tool: string; args: Record<string, unknown> };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; stream?: boolean; messages?: { role: string; content: unknown }[] };
}

export interface ScriptedServer {
  /** Base URL for a provider entry, e.g. http://127.0.0.1:PORT/v1. */
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function chunk(delta: Record<string, unknown>, finish: string | null): string {
  const c = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(c)}\n\n`;
}

function sse(reply: ScriptedReply, n: number): string {
  if ('text' in reply) return chunk({ content: reply.text }, null) + chunk({}, 'stop');
  const call = {
    index: 0,
    id: `call_${n}`,
    type: 'function',
    function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
  };
  return chunk({ tool_calls: [call] }, null) + chunk({}, 'tool_calls');
}

/** A non-streaming answer (generateText, e.g. "Test connection"): text only. */
function completion(reply: ScriptedReply): string {
  const content = 'text' in reply ? reply.text : '';
  return JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** Starts the server with `script` (consumed in order). Resolves once it listens. */
export async function scriptedOpenAI(script: ScriptedReply[] = []): Promise<ScriptedServer> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      let parsed: RecordedRequest['body'] = {};
      try {
        parsed = JSON.parse(body) as RecordedRequest['body'];
      } catch {
        // recorded as an empty body; the assertion on it will say so
      }
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: parsed });
      const reply = queue.shift() ?? { text: 'done' };
      if (!parsed.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(completion(reply));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${sse(reply, requests.length)}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
