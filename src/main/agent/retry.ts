/**
 * Provider error policy: a request that fails BEFORE its stream produced anything is retried when the
 * provider said 429 or 5xx (at most 2 retries, exponential backoff with full jitter, honouring a Retry-After
 * header up to the cap); once a stream has produced output nothing is retried (the model's text was already
 * shown, and a tool call may have been executed). A context-length error is reported as `context_length` with
 * the next step; everything else is `provider_error` carrying the status code.
 */
import { APICallError } from 'ai';
import type { LandfallError } from '../../shared/errors';

export const MAX_RETRIES = 2;

export interface RetryPolicy {
  maxRetries: number;
  /** First delay in ms; doubles per attempt. */
  baseMs: number;
  /** Upper bound of one delay in ms. */
  capMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: MAX_RETRIES, baseMs: 500, capMs: 8000 };

const CONTEXT_RE =
  /context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|context_length_exceeded|input is too long/i;

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  const s =
    (error as { statusCode?: unknown; status?: unknown } | null)?.statusCode ??
    (error as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

function textOf(error: unknown): string {
  if (APICallError.isInstance(error)) return `${error.message} ${error.responseBody ?? ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** True for 429 and 5xx (and connection resets with no status) — worth another attempt before streaming began. */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return false;
  return status === 429 || status >= 500;
}

/** Delay before retry number `attempt` (1-based): full jitter in [base·2^(attempt-1)/2, base·2^(attempt-1)], capped. */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY,
  error?: unknown,
  random = Math.random,
): number {
  const header = APICallError.isInstance(error) ? error.responseHeaders?.['retry-after'] : undefined;
  const retryAfter = header !== undefined ? Number(header) * 1000 : NaN;
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, policy.capMs);
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** A short reason from a failure with no HTTP status (a refused or reset connection, a DNS failure). */
function connectionReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const text = textOf(error);
  const m = /(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH)[^\n]*/.exec(text);
  return code ?? (m ? m[0].trim() : 'connection failed');
}

/** Plain words for a provider failure by HTTP status (what the user reads first; the raw text is in `data.raw`). */
function plainWords(status: number | undefined, error: unknown): { message: string; hint: string } {
  if (status === 429)
    return {
      message: 'Rate limited: the model provider is refusing more requests for now (HTTP 429).',
      hint: 'Wait a minute and send the message again, or pick another model or provider.',
    };
  if (status === 401 || status === 403)
    return {
      message: `The model provider refused the API key (HTTP ${status}).`,
      hint: 'Check the API key in settings.',
    };
  if (status !== undefined && status >= 500)
    return {
      message: `The model provider had a server error (HTTP ${status}).`,
      hint: 'The provider may be overloaded or down: send the message again in a while.',
    };
  if (status !== undefined && status >= 200 && status < 300) {
    // A success status is no rejection: the server answered, with something that is not a chat completion.
    const events = /(^|\s)data:\s*[[{]/.test(
      APICallError.isInstance(error) ? (error.responseBody ?? '') : textOf(error),
    );
    return {
      message: `The model provider answered (HTTP ${status}), but not with a chat completion.`,
      hint: events
        ? 'It sent an event stream to a request that did not ask for one: check that the base URL is an OpenAI-compatible /v1 endpoint; the details show what it sent.'
        : 'Check the base URL and the provider kind; the details show what it sent.',
    };
  }
  if (status !== undefined)
    return {
      message: `The model provider rejected the request (HTTP ${status}).`,
      hint: 'Check the model name and the provider settings; the details say what the provider answered.',
    };
  return {
    message: `Could not reach the model provider (${connectionReason(error)}).`,
    hint: 'Check the provider settings and that the server is running, then send the message again.',
  };
}

/**
 * Turn a provider failure into the error the user and the session see: `message` in plain words by HTTP status
 * (429 says "Rate limited"), `hint` the next step, `data.status` the status and `data.raw` the provider's own
 * text (at most 2,000 characters) for a "details" toggle. A context-length failure is `context_length`.
 */
export function classifyProviderError(error: unknown): LandfallError {
  const status = statusOf(error);
  const text = textOf(error);
  const raw = text.slice(0, 2000);
  const data = { ...(status !== undefined ? { status } : {}), raw };
  if (CONTEXT_RE.test(text)) {
    return {
      code: 'context_length',
      message: `The conversation no longer fits the model's context window: ${text.slice(0, 300)}`,
      hint: 'Start a new session, or revert earlier turns to shorten this one; a model with a larger context also helps.',
      data,
    };
  }
  return { code: 'provider_error', ...plainWords(status, error), data };
}

/** Resolve after `ms`, or reject early with the signal's reason when aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
