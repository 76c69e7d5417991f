/**
 * Test web servers on loopback addresses (127.0.0.x, ::1) that count every request they get, so a test can
 * assert that a refused fetch never connected. Routes answer by path; unknown paths answer 404.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A route's answer: status, headers and body, or a function that writes the response itself. */
export type Route =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface TestServer {
  host: string;
  port: number;
  /** Requests received: path, Host header, TLS server name (https). */
  hits: { path: string; host?: string; servername?: string }[];
  /** Base URL, e.g. http://127.0.0.2:41234 (IPv6 in brackets). */
  base: string;
  close(): Promise<void>;
}

/** Start a server on `host` (port 0) with `routes`; `tls` makes it https with that key and certificate. */
export async function startServer(
  host: string,
  routes: Record<string, Route>,
  tls?: { key: string; cert: string },
): Promise<TestServer> {
  const hits: TestServer['hits'] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const servername = (req.socket as { servername?: string | false }).servername;
    hits.push({
      path: req.url ?? '',
      ...(req.headers.host ? { host: req.headers.host } : {}),
      ...(servername ? { servername } : {}),
    });
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': 'text/plain', ...route.headers }).end(route.body ?? '');
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    hits,
    base: `${tls ? 'https' : 'http'}://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Counts of hostile attempts and how many were held, printed once per file (the report quotes them). */
export class AttemptLog {
  attempts = 0;
  held = 0;
  constructor(private readonly label: string) {}
  /** Record one attempt; `held` true when Landfall refused it as it must. */
  record(held: boolean): void {
    this.attempts++;
    if (held) this.held++;
  }
  print(): void {
    console.log(`${this.label}: attempts ${this.attempts} / held ${this.held}`);
  }
}
