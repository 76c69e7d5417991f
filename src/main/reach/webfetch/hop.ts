/**
 * One hop of a web fetch, checked before anything connects: the URL's scheme (http, https only), its host (the
 * WHATWG URL parser has already folded odd IPv4 spellings like `2130706433`, `0x7f.1`, `017700000001` into
 * `127.0.0.1`), the host's addresses from ONE lookup (an injected resolver; the system's by default), and every
 * address against address.ts. The request then connects to exactly these addresses (request.ts pins them), so
 * a DNS answer that changes between check and connect (rebinding) cannot move the connection elsewhere.
 *
 * Allowed hosts (settings `webfetch.allowHosts`): an entry is a host name or IP literal, optionally with a port
 * (`localhost:3000`, `[::1]:8080`), or `*.name` for every sub-domain of `name`. Compared lower-case without a
 * trailing dot. An allowed host skips the address check for that hop only (a redirect elsewhere is checked
 * again); a metadata address or name stays refused unless the entry is that very IP literal (a rebinding name
 * cannot be allowed into the metadata service by accident). `localhost` and names below it are this machine
 * (RFC 6761) and refused before any lookup.
 */
import { promises as dns } from 'node:dns';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { blockedAddressReason, isIpLiteral, isLocalhostName, isMetadataAddress, isMetadataName } from './address';

/** One address of a host: literal and family (4 or 6). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses; rejects (or answers []) when it has none. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The system resolver: every address `getaddrinfo` answers, in its order. */
export const systemResolver: Resolver = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A hop that passed: the parsed URL, its host as compared (lower-case, no brackets, no trailing dot), port, addresses. */
export interface CheckedHop {
  url: URL;
  host: string;
  port: number;
  addresses: ResolvedAddress[];
  /** True when an allow-list entry let a local or private address through. */
  allowedByList: boolean;
}

/** `host` as compared: lower-case, IPv6 brackets removed, one trailing dot removed. Pure. */
export function comparableHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function defaultPort(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Parse one allow-list entry into host (comparable) and optional port. */
function parseEntry(entry: string): { host: string; port?: number } {
  const e = entry.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (v6) return { host: v6[1] as string, ...(v6[2] ? { port: Number(v6[2]) } : {}) };
  const hp = /^([^:]+):(\d+)$/.exec(e);
  if (hp) return { host: comparableHost(hp[1] as string), port: Number(hp[2]) };
  return { host: comparableHost(e) };
}

/** The allow-list entry that covers `host`:`port`, or undefined. Pure. */
export function allowEntryFor(allowHosts: readonly string[], host: string, port: number): string | undefined {
  return allowHosts.find((entry) => {
    const e = parseEntry(entry);
    if (e.port !== undefined && e.port !== port) return false;
    if (e.host.startsWith('*.')) return host.endsWith(e.host.slice(1));
    return e.host === host;
  });
}

function blocked(url: string, why: string, hint: string): Result<never> {
  return fail('blocked_address', `Refused to fetch ${url}: ${why}.`, hint, { url });
}

const NOT_LOCAL =
  'webfetch reaches public web sites only. To let it reach this host, add it to webfetch.allowHosts in the settings.';

/**
 * Check `raw` (a URL string) as one hop (module docstring). Errors: `invalid_input` (not a URL, a scheme other
 * than http/https, user:password in the URL), `blocked_address` (local, private or metadata address or name;
 * `data.url`), `unavailable` (the name does not resolve). Calls `resolve` at most once, never for an IP literal.
 */
export async function checkHop(
  raw: string,
  allowHosts: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<Result<CheckedHop>> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('invalid_input', `${raw} is not a URL.`, 'Give a full URL starting with https:// or http://.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail('invalid_input', `Refused to fetch ${raw}: only http and https URLs.`, 'Use an https:// URL.');
  if (url.username !== '' || url.password !== '')
    return fail('invalid_input', `Refused to fetch ${raw}: the URL carries a user name or password.`, 'Drop it.');
  const host = comparableHost(url.hostname);
  const port = defaultPort(url);
  const entry = allowEntryFor(allowHosts, host, port);
  const literalEntry = entry !== undefined && isIpLiteral(parseEntry(entry).host);
  if (isMetadataName(host) && !literalEntry) return blocked(url.href, `${host} is a cloud metadata service`, NOT_LOCAL);
  if (isLocalhostName(host) && entry === undefined) return blocked(url.href, `${host} is this machine`, NOT_LOCAL);
  let addresses: ResolvedAddress[];
  if (isIpLiteral(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (e) {
      return fail('unavailable', `${host} does not resolve: ${(e as Error).message}.`, 'Check the URL.', {
        url: url.href,
      });
    }
    if (addresses.length === 0) return fail('unavailable', `${host} has no address.`, 'Check the URL.');
  }
  for (const a of addresses) {
    const why = blockedAddressReason(a.address);
    if (why === undefined) continue;
    if (entry !== undefined && (literalEntry || !isMetadataAddress(a.address))) continue;
    const via = isIpLiteral(host) ? why : `${host} resolves to ${why.replace(/^\S+ is /, `${a.address}, `)}`;
    return blocked(url.href, via, NOT_LOCAL);
  }
  const allowedByList = entry !== undefined && addresses.some((a) => blockedAddressReason(a.address) !== undefined);
  return ok({ url, host, port, addresses, allowedByList });
}
