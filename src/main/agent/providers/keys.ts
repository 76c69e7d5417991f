/**
 * Where a provider's API key comes from. A `KeyLookup` is asked each time a model is created and its answer goes
 * straight to the provider client (providers/index.ts `createModel`); nothing here writes process.env, so no child
 * process (bash, language servers) can inherit a key from Landfall.
 *
 * The command line and the default: the variable the provider's `apiKeyEnv` names, read from the environment at
 * the moment of the request. The app (host/services.ts) asks its secret store first, per provider, then this.
 */
import type { ProviderSettings } from '../settings/schema';

/** The key for `provider`, or undefined when it has none (a local server needs none). */
export type KeyLookup = (provider: ProviderSettings) => string | undefined;

/** Reads `env[provider.apiKeyEnv]` (default env: process.env) when the provider names a variable; empty → none. */
export function environmentKey(env: NodeJS.ProcessEnv = process.env): KeyLookup {
  return (provider) => (provider.apiKeyEnv ? env[provider.apiKeyEnv] || undefined : undefined);
}
