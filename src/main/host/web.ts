/**
 * The local web host: the built renderer over HTTP and the contract over one WebSocket, on 127.0.0.1 only.
 *
 * Access (src/shared/web-auth.ts): the printed URL carries a one-time token in its fragment (`/#token=…`); the
 * page's script exchanges it (POST /auth/exchange) for a session credential kept in this origin's localStorage and
 * presented as a WebSocket subprotocol. No cookie exists: a cookie would be sent to every other server on
 * 127.0.0.1 (cookies ignore the port), and a client replaying it with a forged Origin would get the whole API.
 * Refused before the router: a Host header naming anything but this loopback port (421; a DNS-rebinding page cannot
 * pass), an upgrade from another Origin (403), an upgrade without a valid credential (401). Static files need no
 * credential (web-static.ts); every call does. The same CSP as the desktop window is sent on every page.
 *
 * Wire format (JSON text frames): client → `{ id, call, input }`; server → `{ id, result }` where `result` is a
 * contract Result, and `{ event }` for pushed events. Frames larger than WS_MAX_FRAME_BYTES close the socket with
 * 1009; every other protocol error closes that socket only (web-socket.ts) — the host never stops for a client.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AnyEvent } from '../../shared/contract';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { WS_MAX_FRAME_BYTES } from '../../shared/limits';
import { APP_PROTOCOL, CHECK_PATH, EXCHANGE_PATH } from '../../shared/web-auth';
import type { Router } from './router';
import { contentSecurityPolicy } from './csp';
import { bearerCredential, Gate, presentedCredential } from './web-gate';
import { attachSocket } from './web-socket';
import { sendStatic } from './web-static';

export interface WebHostOptions {
  router: Router;
  /** Subscribes to the core's events; returns the unsubscribe function. */
  subscribe: (listener: (event: AnyEvent) => void) => () => void;
  /** Folder holding the built renderer (index.html + assets/). */
  staticDir: string;
  /** 0 or absent: a random free port. */
  port?: number;
}

export interface WebHost {
  /** The URL to open, with the one-time token in its fragment. */
  url: string;
  port: number;
  /** Mints another one-time token URL (tests and the bench open several pages). */
  issueUrl(): string;
  /** Drops every open WebSocket (the pages reconnect with their credential); for tests of a dropped tunnel. */
  dropSockets(): void;
  close(): Promise<void>;
}

const MAX_AUTH_BODY = 4096;

function json(res: ServerResponse, status: number, body: Result<unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The request body as text, or 'too_large' past MAX_AUTH_BODY bytes (the rest is read and dropped). */
function smallBody(req: IncomingMessage): Promise<string | 'too_large'> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= MAX_AUTH_BODY) chunks.push(d);
    });
    req.on('end', () => resolve(size > MAX_AUTH_BODY ? 'too_large' : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve('too_large'));
  });
}

const OPEN_URL_HINT =
  'Open the URL `npm run serve` printed (it works once), or get a new one: press Enter in its terminal (or kill -USR2 the pid it printed).';

/** POST /auth/exchange `{ token }` → the credential (200), or a typed error. */
async function exchange(gate: Gate, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await smallBody(req);
  if (body === 'too_large')
    return json(res, 413, fail('too_large', 'The request is too large.', 'Send { "token": "…" } as JSON.'));
  let token: unknown;
  try {
    token = (JSON.parse(body) as { token?: unknown }).token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string')
    return json(res, 400, fail('invalid_input', 'Send { "token": "…" } as JSON.', OPEN_URL_HINT));
  const credential = gate.exchange(token);
  if (!credential)
    return json(res, 401, fail('unauthorized', 'This link was already used or is wrong.', OPEN_URL_HINT));
  json(res, 200, ok({ credential }));
}

/** Starts the host on 127.0.0.1. Resolves once it listens. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const gate = new Gate();
  let port = 0;
  const origins = (): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const hostOk = (req: IncomingMessage): boolean =>
    origins().some((o) => o.slice('http://'.length) === req.headers.host);
  const originOk = (req: IncomingMessage): boolean => origins().includes(String(req.headers.origin));
  const csp = (): string => contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end('internal error');
    });
  });
  // A malformed request or a reset connection is that client's problem, never the host's.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostOk(req)) return void res.writeHead(421, { 'content-type': 'text/plain' }).end('Wrong host.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === EXCHANGE_PATH || url.pathname === CHECK_PATH) {
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
      if (!originOk(req)) return json(res, 403, fail('unauthorized', 'Wrong origin.', OPEN_URL_HINT));
      if (url.pathname === EXCHANGE_PATH) return exchange(gate, req, res);
      return gate.admits(bearerCredential(req))
        ? void res.writeHead(204, { 'cache-control': 'no-store' }).end()
        : json(res, 401, fail('unauthorized', 'This page is not signed in to this Landfall host.', OPEN_URL_HINT));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    await sendStatic(options.staticDir, url.pathname, csp(), res);
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WS_MAX_FRAME_BYTES,
    // Select the app's protocol, never echo the credential back.
    handleProtocols: (offered) => (offered.has(APP_PROTOCOL) ? APP_PROTOCOL : false),
  });
  wss.on('error', () => undefined);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refuse = (status: string): void => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!hostOk(req) || new URL(req.url ?? '/', 'http://x').pathname !== '/ws') return refuse('404 Not Found');
    if (!originOk(req)) return refuse('403 Forbidden');
    if (!gate.admits(presentedCredential(req))) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => attachSocket(ws, options.router, options.subscribe));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const issueUrl = (): string => `http://127.0.0.1:${port}/#token=${gate.mintToken()}`;
  return {
    url: issueUrl(),
    port,
    issueUrl,
    dropSockets: () => {
      for (const client of wss.clients) client.terminate();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
