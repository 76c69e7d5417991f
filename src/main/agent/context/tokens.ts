/**
 * Token estimate for text sent to a model: the o200k_base encoding's count (gpt-tokenizer), used when a provider
 * reports no usage. One function for the compaction trigger, the request ledger and what the user is shown.
 */
import { countTokens } from 'gpt-tokenizer';

/** Number of o200k_base tokens in `text` (an estimate for models with other tokenizers). */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}
