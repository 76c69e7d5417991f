/**
 * "Test connection" in settings: one short non-streaming request to the provider, answered as data.
 */
import { generateText } from 'ai';
import { ok, fail } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { createModel } from './providers';
import { classifyProviderError } from './retry';
import type { ProviderSettings } from './settings/schema';

/**
 * Ask the provider for one word, with `apiKey` handed to the provider client (see providers/keys.ts for where a key
 * comes from). Errors: `unauthorized` (a hosted provider without a key), `provider_error`, `context_length`.
 */
export async function testConnection(
  provider: ProviderSettings,
  apiKey: string | undefined,
): Promise<Result<{ text: string; ms: number }>> {
  const model = createModel(provider, apiKey);
  if (!model.ok) return model;
  const t0 = Date.now();
  try {
    const r = await generateText({
      model: model.value,
      prompt: 'Reply with the single word: ready',
      maxRetries: 0,
      maxOutputTokens: 16,
      abortSignal: AbortSignal.timeout(20_000),
    });
    return ok({ text: r.text, ms: Date.now() - t0 });
  } catch (e) {
    const err = classifyProviderError(e);
    return fail(err.code, err.message, err.hint, err.data);
  }
}
