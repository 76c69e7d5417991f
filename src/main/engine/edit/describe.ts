/**
 * One-line descriptions of a landing for the model and the reviewer (fixtures/bugs/README.md B02: a fuzzy landing must be visible,
 * never the same words as an exact hit).
 */
import type { ReplaceSuccess } from './landing';

const RUNG_WORDS: Record<ReplaceSuccess['rung'], string> = {
  create: 'written into the empty file',
  simple: 'exact match',
  'line-trimmed': 'whitespace-tolerant match (indentation and trailing spaces ignored)',
  'block-anchor': 'fuzzy match (first and last lines exact, middle lines similar)',
  'whitespace-normalized': 'whitespace-tolerant match (runs of spaces ignored)',
  'indentation-flexible': 'indentation-tolerant match',
  'escape-normalized': 'match after unescaping oldString',
  'trimmed-boundary': 'match after trimming whitespace around oldString',
  'context-aware': 'fuzzy match (first and last lines exact, most middle lines equal)',
  'multi-occurrence': 'exact match',
  'unicode-punctuation': 'match with typographic punctuation treated as ASCII',
  'line-number-prefix': 'match after removing read-tool line numbers',
};

/**
 * "Edited lines 4-6 (rung line-trimmed: whitespace-tolerant match …); newString's indentation rebased to the file's."
 * Names the rung, the line range (1-based) and every correction applied to newString.
 */
export function describeLanding(
  result: Pick<ReplaceSuccess, 'rung' | 'startLine' | 'endLine' | 'replacements' | 'corrections'>,
): string {
  const lines =
    result.startLine === result.endLine ? `line ${result.startLine}` : `lines ${result.startLine}-${result.endLine}`;
  const count = result.replacements > 1 ? `${result.replacements} replacements within ${lines}` : `Edited ${lines}`;
  const exact = result.rung === 'simple' || result.rung === 'multi-occurrence' || result.rung === 'create';
  const how = `${exact ? '' : 'NOT an exact match: '}rung ${result.rung}, ${RUNG_WORDS[result.rung]}`;
  const fixes = result.corrections.length ? `; ${result.corrections.join('; ')}` : '';
  return `${count} (${how})${fixes}.`;
}
