/**
 * Providers: the AI SDK provider packages behind one function. OpenAI-compatible covers local servers
 * (Ollama, LM Studio, llama.cpp, vLLM) by base URL; Anthropic and OpenAI use their own packages. The key is an
 * argument, found by the caller (keys.ts: the app's secret store, else the variable the provider's `apiKeyEnv`
 * names); it is never read from or written to the settings file or process.env here.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { ProviderSettings, Settings } from '../settings/schema';

/** Pick the provider settings by id (default: settings.defaultProvider). Error `invalid_input` when unknown. */
export function findProvider(settings: Settings, id?: string): Result<ProviderSettings> {
  const want = id ?? settings.defaultProvider;
  const p = settings.providers.find((x) => x.id === want);
  if (!p)
    return fail(
      'invalid_input',
      `No provider named ${want}.`,
      `Use one of: ${settings.providers.map((x) => x.id).join(', ')}, or add it in settings.`,
    );
  return ok(p);
}

/**
 * The AI SDK language model for a provider, with `apiKey` handed to the provider client explicitly (the only place
 * a key goes: never into process.env, so no child process can inherit it). `apiKey` undefined: none (fine for a
 * local OpenAI-compatible server). Error `unauthorized` when a hosted provider (Anthropic, OpenAI) has no key;
 * `invalid_input` when an OpenAI-compatible provider has no base URL.
 */
export function createModel(p: ProviderSettings, apiKey: string | undefined, modelId?: string): Result<LanguageModel> {
  const model = modelId ?? p.model;
  if (p.kind !== 'openai-compatible' && !apiKey) {
    return fail(
      'unauthorized',
      `No API key for ${p.id}: none is stored in the app and the environment variable ${p.apiKeyEnv ?? '(none named)'} is not set.`,
      `Store the key in Settings, or set ${p.apiKeyEnv ?? "the variable named by the provider's apiKeyEnv"} before starting Landfall, and try again.`,
    );
  }
  switch (p.kind) {
    case 'openai-compatible': {
      if (!p.baseURL)
        return fail(
          'invalid_input',
          `Provider ${p.id} has no base URL.`,
          'Set baseURL, e.g. http://127.0.0.1:11434/v1 for Ollama.',
        );
      return ok(
        createOpenAICompatible({ name: p.id, baseURL: p.baseURL, apiKey, includeUsage: true }).chatModel(model),
      );
    }
    case 'anthropic':
      return ok(createAnthropic({ apiKey, baseURL: p.baseURL }).languageModel(model));
    case 'openai':
      return ok(createOpenAI({ apiKey, baseURL: p.baseURL }).languageModel(model));
  }
}
