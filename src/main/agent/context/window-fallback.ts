/**
 * The model window the ledger and the context meter show. The window catalog and the per-model setting belong to
 * the compaction trigger (windows.ts); until a lookup is passed in, a clearly named fallback is used and reported
 * with `source: 'fallback'`, so the user sees that the figure is not the model's own.
 */

/** Window assumed for a model whose window is not known (tokens): 128,000, the common size of current models. */
export const FALLBACK_WINDOW_TOKENS = 128_000;

/** A model's window from settings or the catalog, or undefined when neither knows it. */
export type WindowLookup = (model: string) => { tokens: number; source: 'settings' | 'catalog' } | undefined;

/** The window of `model` (`provider:modelId`) in tokens, and where the figure came from. */
export function windowOf(
  model: string,
  lookup?: WindowLookup,
): { tokens: number; source: 'settings' | 'catalog' | 'fallback' } {
  return lookup?.(model) ?? { tokens: FALLBACK_WINDOW_TOKENS, source: 'fallback' };
}
