/**
 * The one unicode fold of the engines: what both edit's unicode-punctuation rung and apply_patch's unicode pass
 * treat as the same text, so the same typographic text lands through either tool or through neither.
 *
 * The rule every entry obeys: a fold may only make two strings equal that a reader would call the same text. The
 * model writes from memory and types ASCII where the file has typography (or the reverse), so:
 *   - curly single quotes ‘ ’ ‚ ‛ (U+2018–U+201B) → '      curly double quotes “ ” „ ‟ (U+201C–U+201F) → "
 *   - hyphens and dashes ‐ ‑ ‒ – — ― (U+2010–U+2015) and the minus sign − (U+2212) → -
 *   - spaces that show as a space: no-break (U+00A0), en quad … hair space (U+2000–U+200A), narrow no-break
 *     (U+202F), medium mathematical (U+205F), ideographic (U+3000) → ' '
 *   - the ellipsis … (U+2026) → ...
 *   - Unicode normalisation: a letter followed by combining marks is compared in NFC (e + U+0301 ≡ é), the
 *     definition of canonically equivalent text.
 * Not folded, because a reader does not call them the same text: the primes ′ ″ (U+2032, U+2033: minutes and
 * seconds, feet and inches, derivatives — in Julia `A′` is a name and `A'` an adjoint), the guillemets « » (U+00AB,
 * U+00BB: quotation marks of their own, while `"` is syntax in code), and look-alikes such as the modifier letter
 * apostrophe ʼ, the acute accent ´, fullwidth forms ＂ ＇ － and the single guillemets ‹ ›. (Before this table, edit
 * folded ′ ″ « » and apply_patch did not, and apply_patch missed U+2000, U+2001 and NFC: fold-agreement.test.ts.)
 *
 * Every fold target is one of ' " - . and space (FOLD_TARGETS): edit's anchor search relies on it (search.ts).
 *
 * `foldText` keeps the offsets: one-for-one folds (one UTF-16 unit for one) keep every offset; the few
 * length-changing rewrites (the ellipsis, NFC composition) are listed as clusters, so `toSourceOffset` maps a
 * folded offset back to the source by binary search, and a match that would start or end inside a rewritten
 * cluster ('..' inside a folded '…') maps to nothing. Work: one native replace for the one-for-one folds, one scan
 * for the rare length-changing characters (the caller tests FOLDABLE first when most texts hold nothing to fold).
 */
import { upperBound } from './binary-search';

/** Each fold: the characters (as code point ranges, inclusive) and the ASCII text they fold to. */
const FOLDS: ReadonlyArray<{ to: string; ranges: ReadonlyArray<readonly [number, number]> }> = [
  { to: "'", ranges: [[0x2018, 0x201b]] },
  { to: '"', ranges: [[0x201c, 0x201f]] },
  {
    to: '-',
    ranges: [
      [0x2010, 0x2015],
      [0x2212, 0x2212],
    ],
  },
  {
    to: ' ',
    ranges: [
      [0x00a0, 0x00a0],
      [0x2000, 0x200a],
      [0x202f, 0x202f],
      [0x205f, 0x205f],
      [0x3000, 0x3000],
    ],
  },
  { to: '...', ranges: [[0x2026, 0x2026]] },
];

/** Character → what it folds to (the table above, one entry per character). */
export const FOLD_TABLE: Readonly<Record<string, string>> = Object.fromEntries(
  FOLDS.flatMap(({ to, ranges }) =>
    ranges.flatMap(([from, last]) =>
      Array.from({ length: last - from + 1 }, (_, i) => [String.fromCharCode(from + i), to] as const),
    ),
  ),
);

/** The distinct characters folds produce. */
export const FOLD_TARGETS: string = [...new Set(Object.values(FOLD_TABLE).join(''))].sort().join('');

const hex = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const classOf = (chars: string[]): string => chars.map(hex).join('');
const sameLength = Object.keys(FOLD_TABLE).filter((c) => (FOLD_TABLE[c] as string).length === 1);
const resizing = Object.keys(FOLD_TABLE).filter((c) => (FOLD_TABLE[c] as string).length !== 1);

/** True when a text holds a character this fold rewrites, or a combining mark (NFC may rewrite it). */
export const FOLDABLE = new RegExp(`[${classOf(Object.keys(FOLD_TABLE))}\\p{M}]`, 'u');
// folds that keep the length: one native replace, offsets unchanged
const SAME_LENGTH = new RegExp(`[${classOf(sameLength)}]`, 'g');
// folds that may change the length: the table's longer targets, and a character followed by combining marks (NFC);
// the scan looks for the single characters (a class-only pattern is several times faster than one with a sequence)
const RESIZING = new RegExp(`[${classOf(resizing)}\\p{M}]`, 'gu');
const MARK = /\p{M}/u;

/** One rewritten cluster: at folded offset `f` (output length `out`) from source offset `s` (length `len`). */
export interface FoldCluster {
  f: number;
  out: number;
  s: number;
  len: number;
}

/** A folded text and the length-changing clusters it rewrote, in order (`starts[i]` is `clusters[i].f`). */
export interface Folded {
  text: string;
  clusters: FoldCluster[];
  starts: number[];
}

/** `source` folded (see the module docstring), with the clusters that map its offsets back. */
export function foldText(source: string): Folded {
  const same = source.replace(SAME_LENGTH, (c) => FOLD_TABLE[c] ?? c);
  const parts: string[] = [];
  const clusters: FoldCluster[] = [];
  let from = 0;
  let f = 0;
  RESIZING.lastIndex = 0;
  for (let m = RESIZING.exec(same); m !== null; m = RESIZING.exec(same)) {
    // a combining mark belongs to the character before it, and takes the marks after it along
    let start = m.index;
    let end = m.index + m[0].length;
    const table = FOLD_TABLE[m[0]];
    if (table === undefined) {
      if (start > from) start--;
      while (end < same.length && MARK.test(same[end] ?? '')) end++;
      RESIZING.lastIndex = end;
    }
    const piece = same.slice(start, end);
    const out = table ?? piece.normalize('NFC');
    if (out === piece) continue;
    parts.push(same.slice(from, start), out);
    f += start - from;
    clusters.push({ f, out: out.length, s: start, len: end - start });
    f += out.length;
    from = end;
  }
  if (clusters.length === 0) return { text: same, clusters, starts: [] };
  parts.push(same.slice(from));
  return { text: parts.join(''), clusters, starts: clusters.map((c) => c.f) };
}

/**
 * `line` folded, when only the folded text is wanted (apply_patch's unicode pass keys every line of a file with it:
 * most lines hold nothing to fold, and one test answers them).
 */
export function foldLine(line: string): string {
  return FOLDABLE.test(line) ? foldText(line).text : line;
}

/** Source offset of folded offset `f`, or undefined when `f` falls inside a rewritten cluster. */
export function toSourceOffset(folded: Folded, f: number): number | undefined {
  const c = folded.clusters[upperBound(folded.starts, f) - 1];
  if (!c) return f;
  if (f === c.f) return c.s;
  if (f < c.f + c.out) return undefined;
  return c.s + c.len + (f - c.f - c.out);
}
