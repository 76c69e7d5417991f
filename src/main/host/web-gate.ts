/**
 * Who may use the web host (the protocol is described in src/shared/web-auth.ts): one-time tokens minted for the
 * printed URL, and the session credentials they were exchanged for. Credentials live in this process's memory only,
 * so a restart of the host invalidates every page's credential. Lookups compare SHA-256 digests, so the time an
 * answer takes says nothing about how much of a guess was right.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { APP_PROTOCOL, CREDENTIAL_PROTOCOL_PREFIX } from '../../shared/web-auth';

/** 192 random bits, base64url (a valid WebSocket subprotocol token). */
function secret(): string {
  return randomBytes(24).toString('base64url');
}

function digest(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** Tokens waiting to be exchanged and credentials handed out. */
export class Gate {
  private readonly tokens = new Set<string>();
  private readonly credentials = new Set<string>();

  /** A new one-time token (for `/#token=…`). */
  mintToken(): string {
    const t = secret();
    this.tokens.add(digest(t));
    return t;
  }

  /** Spends `token`; answers a new credential, or undefined when the token is unknown or already spent. */
  exchange(token: string): string | undefined {
    const d = digest(token);
    if (!this.tokens.delete(d)) return undefined;
    const credential = secret();
    this.credentials.add(digest(credential));
    return credential;
  }

  /** True when `credential` was handed out by this host. */
  admits(credential: string | undefined): boolean {
    return credential !== undefined && this.credentials.has(digest(credential));
  }
}

/** The subprotocols a WebSocket upgrade offers (`Sec-WebSocket-Protocol`, comma-separated). */
export function offeredProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return joined
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The credential an upgrade presents: only with the app's protocol offered too; else undefined. */
export function presentedCredential(req: IncomingMessage): string | undefined {
  const offered = offeredProtocols(req);
  if (!offered.includes(APP_PROTOCOL)) return undefined;
  const p = offered.find((x) => x.startsWith(CREDENTIAL_PROTOCOL_PREFIX));
  return p?.slice(CREDENTIAL_PROTOCOL_PREFIX.length);
}

/** The credential of an `Authorization: Bearer …` header, or undefined. */
export function bearerCredential(req: IncomingMessage): string | undefined {
  const m = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(req.headers.authorization ?? '');
  return m?.[1];
}
