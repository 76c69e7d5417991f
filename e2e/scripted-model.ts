/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for the end-to-end tests of what the window
 * shows while a model works. Every request body is recorded. Each request takes the next reply of the queue:
 *   - `chunks`: streamed text, one SSE chunk per entry, `everyMs` apart (the provider's own pace), then usage;
 *     with `hang`, the stream stays open after the chunks until the client goes away (a stopped turn);
 *   - `tool`: one tool call with JSON arguments;
 *   - `status`: an HTTP error with `body` (and `headers`, e.g. retry-after).
 * When the queue is empty the reply is the text "done".
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { chunks: string[]; everyMs?: number; hang?: boolean; usage?: { prompt: number; completion: number } }
  | { tool: string; args: Record<string, unknown> }
  | { status: number; body: string; headers?: Record<string, string> };

export interface ScriptedModel {
  baseURL: string;
  /** Request bodies as parsed JSON, in order. */
  bodies: { messages?: { role: string; content: unknown }[] }[];
  /** Replies still to give (push to script the next requests). */
  queue: Reply[];
  close(): Promise<void>;
}

const frame = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>): string =>
  `data: ${JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  })}\n\n`;

function stream(res: ServerResponse, reply: Extract<Reply, { chunks: string[] }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunks = [...reply.chunks];
  const next = (): void => {
    if (res.destroyed) return;
    const c = chunks.shift();
    if (c !== undefined) {
      res.write(frame({ content: c }, null));
      setTimeout(next, reply.everyMs ?? 0);
      return;
    }
    if (reply.hang) return;
    const u = reply.usage ?? { prompt: 0, completion: 0 };
    const usage = { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion };
    res.end(`${frame({}, 'stop', usage)}data: [DONE]\n\n`);
  };
  next();
}

function toolCall(res: ServerResponse, reply: Extract<Reply, { tool: string }>, n: number): void {
  const call = {
    index: 0,
    id: `call_${n}`,
    type: 'function',
    function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
  };
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`${frame({ tool_calls: [call] }, null)}${frame({}, 'tool_calls')}data: [DONE]\n\n`);
}

/** Starts the server; resolves once it listens. */
export async function scriptedModel(): Promise<ScriptedModel> {
  const queue: Reply[] = [];
  const bodies: ScriptedModel['bodies'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      try {
        bodies.push(JSON.parse(body) as ScriptedModel['bodies'][number]);
      } catch {
        bodies.push({});
      }
      const reply = queue.shift() ?? { chunks: ['done'] };
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        return void res.end(reply.body);
      }
      if ('tool' in reply) return toolCall(res, reply, bodies.length);
      stream(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    queue,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
