/**
 * The local web host: the built renderer over HTTP and the contract over one WebSocket, on 127.0.0.1 only.
 *
 * Access: the printed URL carries a one-time token (`/?token=…`). The first request with it gets an HttpOnly,
 * SameSite=Strict session cookie and a redirect to `/` (the token is then spent); every other request needs the
 * cookie. The Host header must name this loopback port (a DNS-rebinding page cannot pass), and a WebSocket upgrade
 * must also come from this origin; anything else is refused before it reaches the router. The same CSP as the
 * desktop window is sent on every page.
 *
 * Wire format (JSON text frames): client → `{ id, call, input }`; server → `{ id, result }` where `result` is a
 * contract Result, and `{ event }` for pushed events. A frame that is not JSON is answered with `invalid_input`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { AnyEvent } from '../../shared/contract';
import { fail } from '../../shared/errors';
import type { Router } from './router';
import { contentSecurityPolicy } from './csp';

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
  /** The URL to open, with the one-time token. */
  url: string;
  port: number;
  /** Mints another one-time token URL (tests and the bench open several pages). */
  issueUrl(): string;
  /** Drops every open WebSocket (the pages reconnect with their cookie); for tests of a dropped tunnel. */
  dropSockets(): void;
  close(): Promise<void>;
}

const COOKIE = 'landfall_session';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

function secret(): string {
  return randomBytes(24).toString('base64url');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

/** State of who may come in: one-time tokens waiting, session cookies handed out. */
class Gate {
  private tokens = new Set<string>();
  private sessions: string[] = [];
  mintToken(): string {
    const t = secret();
    this.tokens.add(t);
    return t;
  }
  /** Spends a token; returns a new session id, or undefined when the token is unknown or spent. */
  exchange(token: string): string | undefined {
    for (const t of this.tokens) {
      if (sameSecret(t, token)) {
        this.tokens.delete(t);
        const s = secret();
        this.sessions.push(s);
        return s;
      }
    }
    return undefined;
  }
  admits(req: IncomingMessage): boolean {
    const c = cookieOf(req);
    return c !== undefined && this.sessions.some((s) => sameSecret(s, c));
  }
}

/** Starts the host on 127.0.0.1. Resolves once it listens. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const gate = new Gate();
  let port = 0;
  const origins = (): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const hostOk = (req: IncomingMessage): boolean =>
    origins().some((o) => o.slice('http://'.length) === req.headers.host);
  const csp = (): string => contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end('internal error');
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostOk(req)) return void res.writeHead(421, { 'content-type': 'text/plain' }).end('Wrong host.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const token = url.searchParams.get('token');
    if (token !== null) {
      const session = gate.exchange(token);
      if (!session)
        return void res
          .writeHead(401, { 'content-type': 'text/plain' })
          .end('This link was already used or is wrong. Start `npm run serve` again for a new one.');
      res.writeHead(302, {
        'set-cookie': `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
        location: '/',
        'cache-control': 'no-store',
      });
      return void res.end();
    }
    if (!gate.admits(req))
      return void res
        .writeHead(401, { 'content-type': 'text/plain' })
        .end('Open the URL that `npm run serve` printed (it carries a one-time token).');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    await sendFile(url.pathname, res);
  }

  async function sendFile(pathname: string, res: ServerResponse): Promise<void> {
    const rel = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^([/\\])+/, '');
    const abs = join(options.staticDir, rel);
    if (!abs.startsWith(options.staticDir + sep) || rel.includes('\0')) return void res.writeHead(404).end();
    let body: Buffer;
    try {
      body = await readFile(abs);
    } catch {
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(abs)] ?? 'application/octet-stream',
      'content-security-policy': csp(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
    });
    res.end(body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: string): void => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!hostOk(req) || new URL(req.url ?? '/', 'http://x').pathname !== '/ws') return refuse('404 Not Found');
    if (!origins().includes(String(req.headers.origin))) return refuse('403 Forbidden');
    if (!gate.admits(req)) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const unsubscribe = options.subscribe((event) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event }));
    });
    ws.on('close', unsubscribe);
    ws.on('message', (data) => void answer(ws, String(data)));
  }

  async function answer(ws: WebSocket, text: string): Promise<void> {
    let frame: { id?: unknown; call?: unknown; input?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      ws.send(
        JSON.stringify({
          id: null,
          result: fail('invalid_input', 'The frame is not JSON.', 'Send { id, call, input } as JSON.'),
        }),
      );
      return;
    }
    const id = typeof frame?.id === 'number' || typeof frame?.id === 'string' ? frame.id : null;
    const result = await options.router.handle(frame?.call, frame?.input);
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const issueUrl = (): string => `http://127.0.0.1:${port}/?token=${gate.mintToken()}`;
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
