/**
 * One GET request to a checked hop (hop.ts), connecting ONLY to the addresses that were checked: the socket's
 * `lookup` answers with them instead of asking DNS again, so the name is resolved once per hop (DNS rebinding
 * cannot swap the address in between). The URL keeps its host name, so the Host header and, for https, the TLS
 * server name (SNI) and certificate check are those of the name, as in any browser.
 *
 * No connection pool (`agent: false`: a kept-alive socket could belong to another address), no proxy, no
 * automatic redirects (the caller follows them by hand, checking each hop), no cookies. The body is read up to
 * `maxBytes` and then the socket is closed (`truncated: true`); `signal` (the time limit and the user's stop)
 * aborts the request at any point.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedHop } from './hop';

/** What one request answered: status, the headers we use, the body bytes read (at most maxBytes). */
export interface HopResponse {
  status: number;
  location?: string;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

export interface RequestOptions {
  maxBytes: number;
  signal: AbortSignal;
  /** Extra certificate authorities to trust for https (PEM); tests pass their own. Default: the system's. */
  ca?: string | Buffer;
  userAgent?: string;
}

/** A `lookup` for net.connect that answers with the checked addresses only (both call forms: one, or `all`). */
function pinnedLookup(hop: CheckedHop): LookupFunction {
  return (_hostname, options, callback) => {
    const list = hop.addresses.map((a) => ({ address: a.address, family: a.family }));
    const first = list[0] as { address: string; family: number };
    if ((options as { all?: boolean }).all) (callback as (e: null, a: typeof list) => void)(null, list);
    else callback(null, first.address, first.family);
  };
}

function header(res: http.IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Send GET for `hop` (module docstring). Rejects on a network error, a TLS failure or an abort. */
export function requestHop(hop: CheckedHop, options: RequestOptions): Promise<HopResponse> {
  const mod = hop.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(hop.url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(hop),
      signal: options.signal,
      headers: {
        'user-agent': options.userAgent ?? 'Landfall-webfetch/1 (+coding agent)',
        accept: 'text/html, text/markdown, text/plain, application/json, application/xml;q=0.9, */*;q=0.1',
        'accept-encoding': 'identity',
      },
      ...(options.ca ? { ca: options.ca } : {}),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = (): void =>
        resolve({
          status: res.statusCode ?? 0,
          ...(header(res, 'location') ? { location: header(res, 'location') } : {}),
          contentType: header(res, 'content-type') ?? '',
          body: Buffer.concat(chunks),
          truncated,
        });
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = options.maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          truncated = true;
          req.destroy();
          done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.end();
  });
}
