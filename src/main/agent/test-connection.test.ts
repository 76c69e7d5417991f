/**
 * "Test connection" against a local server that answers the non-streaming test request with an event stream:
 * the HTTP 200 is not called a rejection — the words say the provider answered with something that is not a
 * chat completion, and what it sent is kept for the "details" toggle.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from './test-connection';
import type { ProviderSettings } from './settings/schema';

const SENT =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"ready"}}]}\n\ndata: [DONE]\n\n';
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(SENT);
});

beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('testConnection', () => {
  it('an event stream answering a non-streaming request is "not a chat completion", with the body behind details', async () => {
    const port = (server.address() as AddressInfo).port;
    const provider = {
      id: 'local',
      kind: 'openai-compatible',
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: 'm',
    } as ProviderSettings;
    const r = await testConnection(provider, undefined);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toBe('The model provider answered (HTTP 200), but not with a chat completion.');
    expect(r.error.message).not.toMatch(/reject/i);
    expect(r.error.hint).toMatch(/event stream/);
    expect((r.error.data as { raw: string }).raw).toContain(SENT);
  });
});
