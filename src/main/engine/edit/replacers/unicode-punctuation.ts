/**
 * Rung 10 (Landfall), unicode-punctuation: oldString fits once both texts are folded by the engines' one unicode
 * fold (src/main/engine/text/unicode-fold.ts: curly quotes → straight, dashes and minus → '-', odd spaces → ' ',
 * '…' → '...', NFC) — the same fold apply_patch's unicode pass uses, so the same text lands through both tools.
 * Matching happens on folded copies; a folded offset maps back to the file, and the file's own characters are what
 * gets replaced. newString is written verbatim (conformance policy 4). Exact runs first, so a byte-exact straight
 * quote wins over a curly one. A match must start and end on cluster boundaries ('..' inside a folded '…' is no
 * match).
 * Work: for an ASCII oldString without foldable characters, a look around the places of its most distinctive
 * run first (nothingToFold) — most searches end there without reading the whole file; then skipped unless one
 * of the texts holds a foldable character or a combining mark; otherwise one fold of the file.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { allIndexesOf } from '../text';
import { FOLDABLE, foldText, toSourceOffset } from '../../text/unicode-fold';

/** How many places of the anchor the pre-check looks at before it gives up and folds the whole file. */
const MAX_ANCHORS = 64;
/**
 * True when a folded match cannot differ from an exact one, known without scanning the whole file: oldString is
 * ASCII without foldable characters, so every match holds its anchor verbatim (SearchContext.anchor: no
 * character folds to any of its characters); when no window around a line holding the anchor (oldString's
 * length either side) holds a foldable character, any match is an exact occurrence, and the simple rung judged
 * those already.
 */
function nothingToFold(ctx: SearchContext): boolean {
  for (let i = 0; i < ctx.old.length; i++) if (ctx.old.charCodeAt(i) > 0x7f) return false;
  const { run, offset } = ctx.anchor();
  if (run.length === 0) return false;
  const lines = ctx.text.linesContaining(run);
  if (lines.length > MAX_ANCHORS) return false;
  return lines.every((i) => {
    const from = Math.max(0, (ctx.text.lineStarts[i] ?? 0) - offset);
    return !FOLDABLE.test(ctx.content.slice(from, ctx.text.lineEnd(i) + ctx.old.length));
  });
}

function find(ctx: SearchContext): Candidate[] {
  const oldFolds = FOLDABLE.test(ctx.old);
  if (!oldFolds && nothingToFold(ctx)) return [];
  if (!oldFolds && !FOLDABLE.test(ctx.content)) return [];
  if (!ctx.budget.spend(ctx.content.length)) return [];
  const file = foldText(ctx.content);
  const needle = foldText(ctx.old).text;
  const out: Candidate[] = [];
  for (const at of allIndexesOf(file.text, needle)) {
    const start = toSourceOffset(file, at);
    const end = toSourceOffset(file, at + needle.length);
    if (start === undefined || end === undefined) continue;
    out.push({ start, end, rung: 'unicode-punctuation', matched: ctx.old, lineAligned: false, distortions: [] });
  }
  return out;
}

export const unicodePunctuation: Replacer = { name: 'unicode-punctuation', kind: 'cosmetic', find };
