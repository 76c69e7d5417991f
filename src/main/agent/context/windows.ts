/**
 * The model's context window and the compaction trigger (DESIGN §11). The window comes from the provider entry
 * in settings (`contextWindow`, tokens) when it is set, else from a catalog of defaults for common models (by
 * model id, longest matching prefix), else a conservative fallback that says it is a guess — `source` tells the
 * Settings view which it is, so a wrong or missing value is visible.
 *
 * Trigger: compact before a step when the estimated request reaches window − max(output reserve, 20,000) tokens
 * (opencode's margin: room for the reply and for the estimate being off).
 */

/** Tokens kept free below the window in any case. */
export const MIN_HEADROOM = 20_000;
/** Output reserve when the provider entry names none (tokens). */
export const DEFAULT_OUTPUT_RESERVE = 16_000;
/** Window assumed for a model the catalog does not know (tokens); Settings shows it as a guess to correct. */
export const FALLBACK_WINDOW = 128_000;

/** Defaults by model-id prefix (tokens), from the providers' published limits. */
export const WINDOW_CATALOG: readonly (readonly [prefix: string, tokens: number])[] = [
  ['claude-opus-4', 200_000],
  ['claude-sonnet-4', 200_000],
  ['claude-haiku-4', 200_000],
  ['claude-3', 200_000],
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['qwen2.5-coder', 32_768],
  ['qwen3-coder', 262_144],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['deepseek-coder-v2', 163_840],
  ['devstral', 131_072],
  ['mistral', 32_768],
  ['gemma3', 131_072],
];

export interface WindowSpec {
  /** Context window (tokens). */
  window: number;
  /** Tokens the reply may take (kept free). */
  outputReserve: number;
  /** Where the window came from: settings, the catalog, or the fallback guess. */
  source: 'settings' | 'catalog' | 'fallback';
}

/** The window of `modelId` given the provider entry's optional `contextWindow` / `outputReserve` (tokens). */
export function windowFor(modelId: string, entry: { contextWindow?: number; outputReserve?: number } = {}): WindowSpec {
  const outputReserve = entry.outputReserve ?? DEFAULT_OUTPUT_RESERVE;
  if (entry.contextWindow !== undefined) return { window: entry.contextWindow, outputReserve, source: 'settings' };
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  let best: readonly [string, number] | undefined;
  for (const row of WINDOW_CATALOG)
    if (id.startsWith(row[0]) && (best === undefined || row[0].length > best[0].length)) best = row;
  return best
    ? { window: best[1], outputReserve, source: 'catalog' }
    : { window: FALLBACK_WINDOW, outputReserve, source: 'fallback' };
}

/** The estimated request size (tokens) at which a compaction runs: window − max(output reserve, 20,000). */
export function compactionThreshold(spec: Pick<WindowSpec, 'window' | 'outputReserve'>): number {
  return spec.window - Math.max(spec.outputReserve, MIN_HEADROOM);
}
