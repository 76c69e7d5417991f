/**
 * A web fetch from start to body: every hop checked (hop.ts) before it connects, the permission `webfetch` asked
 * per host (the rules match host patterns: `*.example.com`), redirects followed by hand — at most
 * MAX_REDIRECTS, each new location checked again from scratch (scheme, host, addresses, allow-list, permission)
 * — and the whole fetch bounded by one time limit and one read limit.
 *
 * Order per hop: check the address first (a refused address is never put to the user as a question: the answer
 * could only let the model reach this machine), then ask for the host when no earlier hop of this fetch asked
 * for it, then connect to the checked addresses.
 */
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { AskPermission } from '../../tools/types';
import { checkHop, systemResolver } from './hop';
import type { Resolver } from './hop';
import { requestHop } from './request';
import type { HopResponse } from './request';

/** Redirects followed by hand before the fetch gives up (browsers allow 20; a page needs one or two). */
export const MAX_REDIRECTS = 5;
/** Bytes of body read before the connection is closed and the text marked truncated (5 MB). */
export const MAX_READ_BYTES = 5 * 1024 * 1024;

export interface FetchDeps {
  allowHosts: () => readonly string[] | Promise<readonly string[]>;
  resolve?: Resolver;
  ask?: AskPermission;
  /** Extra trusted certificate authorities (tests). */
  ca?: string | Buffer;
  maxBytes?: number;
}

export interface FetchRequest {
  url: string;
  /** Time limit of the whole fetch, all hops together (ms). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The last hop's answer and the chain of URLs that led to it (first = the one asked). */
export interface Fetched extends HopResponse {
  url: string;
  chain: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function askHost(deps: FetchDeps, host: string, url: string, asked: Set<string>): Promise<Result<void>> {
  if (!deps.ask || asked.has(host)) return ok(undefined);
  asked.add(host);
  const answer = await deps.ask({ tool: 'webfetch', permission: 'webfetch', patterns: [host], title: `fetch ${url}` });
  if (answer.allow) return ok(undefined);
  return fail(
    'permission_denied',
    `Fetching ${url} is not allowed${answer.reason ? `: ${answer.reason}` : '.'}`,
    'Do without this page, or ask the user to allow the host.',
    { url, host },
  );
}

function networkError(url: string, e: unknown, timedOut: boolean, timeoutMs: number): Result<never> {
  if (timedOut)
    return fail('timeout', `Fetching ${url} took longer than ${timeoutMs} ms and was stopped.`, 'Try again later.', {
      url,
    });
  const name = (e as Error).name;
  if (name === 'AbortError')
    return fail('interrupted', `Fetching ${url} was stopped.`, 'The user stopped the turn.', { url });
  return fail('unavailable', `Fetching ${url} failed: ${(e as Error).message}.`, 'Check the URL or try later.', {
    url,
  });
}

/**
 * Fetch `request.url` (module docstring). Errors: invalid_input, blocked_address, unavailable (hop.ts);
 * permission_denied; timeout (the limit passed; nothing returned); interrupted (the caller's signal);
 * unavailable (connection or TLS failure, more than MAX_REDIRECTS redirects, a redirect without Location).
 */
export async function fetchChecked(request: FetchRequest, deps: FetchDeps): Promise<Result<Fetched>> {
  const timer = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timer, request.signal]) : timer;
  const allowHosts = await deps.allowHosts();
  const asked = new Set<string>();
  const chain: string[] = [];
  let next = request.url;
  for (let hops = 0; ; hops++) {
    const hop = await checkHop(next, allowHosts, deps.resolve ?? systemResolver);
    if (!hop.ok) return chain.length === 0 ? hop : withChain(hop, chain);
    chain.push(hop.value.url.href);
    const allowed = await askHost(deps, hop.value.host, hop.value.url.href, asked);
    if (!allowed.ok) return allowed;
    let res: HopResponse;
    try {
      res = await requestHop(hop.value, { maxBytes: deps.maxBytes ?? MAX_READ_BYTES, signal, ca: deps.ca });
    } catch (e) {
      return networkError(hop.value.url.href, e, timer.aborted, request.timeoutMs);
    }
    if (!REDIRECTS.has(res.status)) return ok({ ...res, url: hop.value.url.href, chain });
    if (!res.location)
      return fail('unavailable', `${hop.value.url.href} redirected without a Location.`, 'Try another URL.');
    if (hops >= MAX_REDIRECTS)
      return fail(
        'unavailable',
        `${request.url} redirected more than ${MAX_REDIRECTS} times (${chain.join(' → ')}).`,
        'Fetch the final page directly if you know it.',
        { chain },
      );
    next = new URL(res.location, hop.value.url).href;
  }
}

/** A refusal on a later hop names how the fetch got there. */
function withChain<T>(refused: Result<T> & { ok: false }, chain: string[]): Result<T> {
  const error = refused.error;
  return {
    ok: false,
    error: {
      ...error,
      message: `${error.message} (redirected from ${chain.join(' → ')})`,
      data: { ...error.data, chain },
    },
  };
}
