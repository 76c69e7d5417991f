/**
 * Rung 10 (Landfall), unicode-punctuation: oldString fits once typographic punctuation is folded to ASCII and
 * both texts are in Unicode NFC: curly quotes → straight, dashes and minus → '-', no-break and other odd spaces →
 * ' ', '…' → '...'. Matching happens on folded copies. One-for-one folds keep every offset; the few
 * length-changing rewrites (the ellipsis, NFC composition) are listed, so a folded offset maps back to the file
 * (binary search) and the file's own characters are what gets replaced. newString is written verbatim (conformance policy 4). Exact runs first, so a byte-exact straight quote
 * wins over a curly one. A match must start and end on cluster boundaries ('..' inside a folded '…' is no match).
 * Work: for an ASCII oldString without foldable characters, a look around the places of its most distinctive
 * run first (nothingToFold) — most searches end there without reading the whole file; then skipped unless one
 * of the texts holds a foldable character or a combining mark; otherwise one native replace plus one scan for
 * the rare length-changing characters.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { allIndexesOf } from '../text';

const FOLD: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u2007': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
  '\u2026': '...',
};
for (let c = 0x2000; c <= 0x200a; c++) FOLD[String.fromCharCode(c)] = ' ';

const FOLDABLE =
  /[\u2018-\u201F\u2032\u2033\u00AB\u00BB\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000\u2026\p{M}]/u;
// folds that keep the length (one UTF-16 unit for one): done with one native replace, offsets unchanged
const SAME_LENGTH = /[\u2018-\u201F\u2032\u2033\u00AB\u00BB\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
// folds that may change the length: the ellipsis, and a character followed by combining marks (NFC); the scan
// looks for the single characters (a class-only pattern is several times faster than one with a sequence)
const RESIZING = /[\u2026\p{M}]/gu;
const MARK = /\p{M}/u;

/** One rewritten cluster: at folded offset `f` (output length `out`) from source offset `s` (length `len`). */
interface Cluster {
  f: number;
  out: number;
  s: number;
  len: number;
}

/** Folded text and the length-changing clusters it rewrote (see module doc). */
export interface Folded {
  text: string;
  clusters: Cluster[];
}

/** Fold `source` (see module doc). */
export function fold(source: string): Folded {
  const same = source.replace(SAME_LENGTH, (c) => FOLD[c] ?? c);
  const parts: string[] = [];
  const clusters: Cluster[] = [];
  let from = 0;
  let f = 0;
  RESIZING.lastIndex = 0;
  for (let m = RESIZING.exec(same); m !== null; m = RESIZING.exec(same)) {
    // a combining mark belongs to the character before it, and takes the marks after it along
    let start = m.index;
    let end = m.index + m[0].length;
    if (m[0] !== '\u2026') {
      if (start > from) start--;
      while (end < same.length && MARK.test(same[end] ?? '')) end++;
      RESIZING.lastIndex = end;
    }
    const piece = same.slice(start, end);
    const out = piece === '\u2026' ? '...' : piece.normalize('NFC');
    if (out === piece) continue;
    parts.push(same.slice(from, start), out);
    f += start - from;
    clusters.push({ f, out: out.length, s: start, len: end - start });
    f += out.length;
    from = end;
  }
  parts.push(same.slice(from));
  return { text: parts.join(''), clusters };
}

/** Source offset of folded offset `f`, or undefined when `f` falls inside a rewritten cluster. */
function toSource(folded: Folded, f: number): number | undefined {
  const cs = folded.clusters;
  let lo = 0;
  let hi = cs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cs[mid]?.f ?? 0) <= f) lo = mid + 1;
    else hi = mid;
  }
  const c = cs[lo - 1];
  if (!c) return f;
  if (f === c.f) return c.s;
  if (f < c.f + c.out) return undefined;
  return c.s + c.len + (f - c.f - c.out);
}

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
  const file = fold(ctx.content);
  const needle = fold(ctx.old).text;
  const out: Candidate[] = [];
  for (const at of allIndexesOf(file.text, needle)) {
    const start = toSource(file, at);
    const end = toSource(file, at + needle.length);
    if (start === undefined || end === undefined) continue;
    out.push({ start, end, rung: 'unicode-punctuation', matched: ctx.old, lineAligned: false, distortions: [] });
  }
  return out;
}

export const unicodePunctuation: Replacer = { name: 'unicode-punctuation', kind: 'cosmetic', find };
