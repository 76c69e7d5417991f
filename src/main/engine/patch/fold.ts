/**
 * The ladder of line comparisons used to locate hunks and anchors (conformance README policy 5), strict to loose:
 *
 *   exact     the line as it is
 *   trim_end  trailing whitespace ignored
 *   trim      whitespace at both ends ignored
 *   unicode   trimmed, and typographic punctuation folded to ASCII: curly single/double quotes, the dashes and
 *             the minus sign, odd spaces (NBSP, narrow NBSP, en/em/thin spaces, ideographic space), and the
 *             ellipsis `…` ≡ `...` (codex folds the first three; the ellipsis is Landfall's addition)
 *
 * A pass is a key function: two lines match at a pass when their keys are equal. Keys, not predicates, so a file
 * can be indexed once per pass (see seek.ts). The pass only decides WHERE a hunk lands; the bytes kept are always
 * the file's own.
 */

export type PassName = 'exact' | 'trim_end' | 'trim' | 'unicode';

export interface Pass {
  name: PassName;
  key: (line: string) => string;
}

const FOLD: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
  '\u2026': '...',
};
const FOLDABLE =
  /[\u2018\u2019\u201A\u201B\u201C-\u201F\u2010-\u2015\u2212\u00A0\u2002-\u200A\u202F\u205F\u3000\u2026]/g;

/** `line` with typographic punctuation and odd spaces folded to ASCII (see the module docstring). */
export function foldPunctuation(line: string): string {
  return line.replace(FOLDABLE, (c) => FOLD[c] ?? c);
}

/** The ladder, strict to loose. */
export const PASSES: readonly Pass[] = [
  { name: 'exact', key: (s) => s },
  { name: 'trim_end', key: (s) => s.trimEnd() },
  { name: 'trim', key: (s) => s.trim() },
  { name: 'unicode', key: (s) => foldPunctuation(s).trim() },
];
