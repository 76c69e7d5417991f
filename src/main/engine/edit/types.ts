/**
 * Shapes shared by the replacers and the decision loop of the edit engine (DESIGN §2, §10).
 *
 * A replacer never edits text: it yields candidates, i.e. places `{ start, end }` in the (LF-normalised, BOM-less)
 * content where a piece of the file fits oldString under that rung's tolerance. The decision loop in replace.ts
 * judges them (uniqueness, span, token boundary, fidelity gates) and builds the replacement.
 */
import type { Budget } from './similarity';
import type { TextIndex } from './text';

/** Rung names, strict to loose, in the order the ladder runs them (opencode's nine, then Landfall's safe extras). */
export const RUNG_NAMES = [
  'simple',
  'line-trimmed',
  'block-anchor',
  'whitespace-normalized',
  'indentation-flexible',
  'escape-normalized',
  'trimmed-boundary',
  'context-aware',
  'multi-occurrence',
  'unicode-punctuation',
  'line-number-prefix',
] as const;

export type RungName = (typeof RUNG_NAMES)[number];

/** What a landing reports as its rung: a ladder rung, or 'create' when an empty file received newString. */
export type LandingRung = RungName | 'create';

/**
 * A correction a rung tolerated in oldString; the loop applies the same correction to newString (inverse distortion).
 * - escape: oldString was over-escaped (`\n`, `\"` as two characters).
 * - line_prefix: oldString carried read-tool line-number prefixes (`12: `).
 * - boundary: oldString carried extra leading/trailing whitespace or blank lines around the text.
 * - trailing_newline: a line-based rung matched whole lines and left the final line break of the block out of the span.
 */
export type Distortion =
  | { kind: 'escape' }
  | { kind: 'line_prefix' }
  | { kind: 'boundary'; leading: string; trailing: string }
  | { kind: 'trailing_newline' };

/** One place in the content where oldString fits at some rung. Offsets are UTF-16 indices into `SearchContext.content`. */
export interface Candidate {
  start: number;
  end: number;
  rung: RungName;
  /** The text the rung compared with the file (oldString after the rung's own normalisation, e.g. prefixes cut). */
  matched: string;
  /** True when the span covers whole lines and `matched` lines pair with them: indentation may then be rebased. */
  lineAligned: boolean;
  distortions: Distortion[];
  /** For similarity-scored rungs: the lowest per-line similarity of the block (0..1). Checked by the fidelity gate. */
  minLineSimilarity?: number;
}

/** What every replacer gets: the file text (normalised), oldString (normalised), and a work budget. */
export interface SearchContext {
  /** File text with CRLF turned into LF and a leading BOM removed. */
  content: string;
  /** oldString with CRLF turned into LF and a leading BOM removed. */
  old: string;
  /** Lines of `content` and derived lookups, built lazily (the exact rung never needs them). */
  text: TextIndex;
  /** oldString split into lines, without the empty element a final line break would produce. */
  oldLines: string[];
  /** True when oldString ends with a line break (the block is whole lines). */
  oldEndsWithNewline: boolean;
  budget: Budget;
  /**
   * Similarity (0..1, similarity.ts, against LINE_FLOOR) of `want` and the trimmed file line `line`, charged to
   * the budget once: block-anchor and context-aware score the same pairs, remembered per context.
   */
  lineSimilarity(want: string, line: number): number;
  /**
   * oldString's longest run of characters that are neither whitespace nor characters typographic punctuation
   * folds to (' " - . and space): verbatim in any whitespace-normalized or punctuation-folded match, so one
   * search for it (TextIndex.linesContaining, cached) finds every place such a match can be. `offset` is its
   * index in `old`, `line` the index of its line in `oldLines`; run '' when there is none.
   */
  anchor(): { run: string; offset: number; line: number };
}

/**
 * What a rung tolerates, which decides how its landing is judged (replace.ts):
 * - exact: oldString byte for byte (after CRLF/BOM normalisation); an exact unique place always wins;
 * - cosmetic: presentation only (whitespace, indentation, escaping, typographic punctuation, read-tool prefixes);
 *   every cosmetic rung's places count together for uniqueness, so two lines that differ from oldString only
 *   cosmetically are two places, whichever rung found each;
 * - similarity: content drift scored by Levenshtein similarity (block-anchor, context-aware); its places count
 *   with every cosmetic and similarity place.
 */
export type RungKind = 'exact' | 'cosmetic' | 'similarity';

/** A rung: a generator of candidates. It must stop early when `ctx.budget.exhausted` turns true. */
export interface Replacer {
  name: RungName;
  kind: RungKind;
  find(ctx: SearchContext): Iterable<Candidate>;
}
