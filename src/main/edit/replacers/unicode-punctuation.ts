/**
 * Rung 10 (Landfall), unicode-punctuation: oldString fits once typographic punctuation is folded to ASCII and
 * both texts are in Unicode NFC: curly quotes → straight, dashes and minus → '-', no-break and other odd spaces →
 * ' ', '…' → '...'. Matching happens on folded copies; a map from folded offsets back to file offsets gives
 * the span in the real text, so the file's own characters are what gets replaced, and newString is written
 * verbatim (conformance policy 4). Exact runs first, so a byte-exact straight quote wins over a curly one.
 * Work: skipped entirely when both texts are ASCII; otherwise one pass over the file.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { allIndexesOf } from '../text';

const FOLD: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"', '\u00AB': '"', '\u00BB': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00A0': ' ', '\u2007': ' ', '\u202F': ' ', '\u205F': ' ', '\u3000': ' ', '\u2026': '...',
};
for (let c = 0x2000; c <= 0x200a; c++) FOLD[String.fromCharCode(c)] = ' ';

/** Folded text plus `map[i]` = offset in the source of folded character i (`map[length]` = source length). */
export interface Folded {
  text: string;
  map: number[];
}

// a character with the combining marks that follow it (an NFD 'e' + U+0301 folds with an NFC 'é')
const CLUSTER = /[\s\S]\p{M}*/uy;

/** Fold `source` (see module doc), keeping the offset map. */
export function fold(source: string): Folded {
  let text = '';
  const map: number[] = [];
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code < 0x80 && !(source.charCodeAt(i + 1) >= 0x80)) {
      text += source[i];
      map.push(i);
      i++;
      continue;
    }
    CLUSTER.lastIndex = i;
    const cluster = CLUSTER.exec(source)?.[0] ?? source[i] ?? '';
    const nfc = cluster.normalize('NFC');
    const out = FOLD[nfc] ?? nfc;
    for (let k = 0; k < out.length; k++) map.push(i);
    text += out;
    i += cluster.length;
  }
  map.push(source.length);
  return { text, map };
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7F]/;

function find(ctx: SearchContext): Candidate[] {
  if (!NON_ASCII.test(ctx.content) && !NON_ASCII.test(ctx.old)) return [];
  if (!ctx.budget.spend(ctx.content.length)) return [];
  const file = fold(ctx.content);
  const needle = fold(ctx.old).text;
  // a match must start and end on character boundaries of the source ('..' inside a folded '…' is no match)
  const onBoundary = (at: number): boolean => at === 0 || at === file.map.length - 1 || file.map[at - 1] !== file.map[at];
  const hits = allIndexesOf(file.text, needle).filter((at) => onBoundary(at) && onBoundary(at + needle.length));
  return hits.map((at) => ({
    start: file.map[at] ?? 0,
    end: file.map[at + needle.length] ?? ctx.content.length,
    rung: 'unicode-punctuation' as const,
    matched: ctx.old,
    lineAligned: false,
    distortions: [],
  }));
}

export const unicodePunctuation: Replacer = { name: 'unicode-punctuation', find };
