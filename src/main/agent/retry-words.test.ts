/**
 * Provider failures in plain words: a 429 says "Rate limited" (never "check the server"), a refused key names the
 * key, a 5xx is the provider's server error, a refused connection names the reason; the provider's own text is
 * kept in `data.raw` for the "details" toggle.
 */
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyProviderError } from './retry';

const apiError = (statusCode: number, responseBody: string): APICallError =>
  new APICallError({ message: 'Bad status', url: 'http://x/v1', requestBodyValues: {}, statusCode, responseBody });

describe('classifyProviderError', () => {
  it('429 is rate limited, with the raw text behind details', () => {
    const e = classifyProviderError(apiError(429, '{"error":"Rate limit reached for gpt-x"}'));
    expect(e.code).toBe('provider_error');
    expect(e.message).toBe('Rate limited: the model provider is refusing more requests for now (HTTP 429).');
    expect(e.hint).not.toMatch(/server is running|check the server/i);
    expect(e.data).toEqual({ status: 429, raw: 'Bad status {"error":"Rate limit reached for gpt-x"}' });
  });

  it('401, 500, 400 and a refused connection each get their own words', () => {
    expect(classifyProviderError(apiError(401, 'no')).message).toBe(
      'The model provider refused the API key (HTTP 401).',
    );
    expect(classifyProviderError(apiError(503, 'busy')).message).toBe(
      'The model provider had a server error (HTTP 503).',
    );
    expect(classifyProviderError(apiError(400, 'bad model')).message).toBe(
      'The model provider rejected the request (HTTP 400).',
    );
    const refused = Object.assign(new Error('Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9'), {
      cause: { code: 'ECONNREFUSED' },
    });
    expect(classifyProviderError(refused).message).toBe('Could not reach the model provider (ECONNREFUSED).');
  });

  it('a context-length failure stays context_length', () => {
    expect(classifyProviderError(apiError(400, 'maximum context length is 8192 tokens')).code).toBe('context_length');
  });
});
