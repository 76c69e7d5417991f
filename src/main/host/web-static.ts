/**
 * The built renderer over HTTP: index.html and assets/ from one folder, never a byte outside it (`..`, encoded
 * dots, NUL are 404). Served without a credential — the files are the app's public code and hold no secret; every
 * call still needs one (web-gate.ts). Each page carries the CSP, nosniff, no-referrer and same-origin opener.
 */
import type { ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

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

/** Answers `pathname` from `staticDir` (`/` → index.html), 404 for anything missing or outside. */
export async function sendStatic(staticDir: string, pathname: string, csp: string, res: ServerResponse): Promise<void> {
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^([/\\])+/, '');
  } catch {
    return void res.writeHead(404).end(); // a malformed %-escape
  }
  const abs = join(staticDir, rel);
  if (!abs.startsWith(staticDir + sep) || rel.includes('\0')) return void res.writeHead(404).end();
  let body: Buffer;
  try {
    body = await readFile(abs);
  } catch {
    return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(abs)] ?? 'application/octet-stream',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-store',
  });
  res.end(body);
}
