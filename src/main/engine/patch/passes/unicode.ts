/**
 * Pass 4, unicode: trimmed, and folded by the engines' one unicode fold (src/main/engine/text/unicode-fold.ts:
 * curly quotes, dashes and the minus sign, odd spaces, the ellipsis `…` ≡ `...`, NFC) — the fold edit's
 * unicode-punctuation rung uses too, so the same typographic text lands through either tool. codex folds the
 * quotes, dashes and spaces; the ellipsis and NFC are Landfall's additions.
 */
import { foldLine } from '../../text/unicode-fold';
import type { Pass } from '../types';

export const unicode: Pass = { name: 'unicode', key: (line) => foldLine(line).trim() };
