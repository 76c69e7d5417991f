/**
 * The test MCP server (server.mjs) over Streamable HTTP on 127.0.0.1, stateful (one SDK transport per session, so
 * list_changed notifications reach the client on its GET stream). `requests` counts the HTTP requests and
 * `authorization` keeps the last Authorization header (to check the entry's headers are sent).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
// @ts-expect-error a plain ES module of the tests, without types
import { makeServer } from './server.mjs';

export interface HttpMcp {
  url: string;
  requests: number;
  authorization?: string;
  close(): Promise<void>;
}

/** Start the server on 127.0.0.1 (a free port). */
export async function startHttpMcp(): Promise<HttpMcp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const state: HttpMcp = { url: '', requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    state.requests++;
    if (req.headers.authorization) state.authorization = req.headers.authorization;
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    void (makeServer() as { connect(t: unknown): Promise<void> })
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  state.close = async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
