/**
 * The ladder: every replacer, strict to loose, in the order the decision loop runs them. opencode's nine first
 * (field-tested order), then Landfall's two safe extras, which can only land where the text is unambiguous.
 */
import type { Replacer } from '../types';
import { simple } from './simple';
import { lineTrimmed } from './line-trimmed';
import { blockAnchor } from './block-anchor';
import { whitespaceNormalized } from './whitespace-normalized';
import { indentationFlexible } from './indentation-flexible';
import { escapeNormalized } from './escape-normalized';
import { trimmedBoundary } from './trimmed-boundary';
import { contextAware } from './context-aware';
import { multiOccurrence } from './multi-occurrence';
import { unicodePunctuation } from './unicode-punctuation';
import { lineNumberPrefix } from './line-number-prefix';

export const LADDER: readonly Replacer[] = [
  simple,
  lineTrimmed,
  blockAnchor,
  whitespaceNormalized,
  indentationFlexible,
  escapeNormalized,
  trimmedBoundary,
  contextAware,
  multiOccurrence,
  unicodePunctuation,
  lineNumberPrefix,
];
