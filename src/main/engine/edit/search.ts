/**
 * Building the search context the replacers share, and the small candidate utilities the loop uses.
 */
import type { Candidate, SearchContext } from './types';
import { Budget, similarity } from './similarity';
import { LINE_FLOOR } from './policy';
import type { TextIndex } from './text';
import { splitBlock } from './text';

/** A search context over `text` for `old` (both already normalised). */
export function makeContext(text: TextIndex, old: string, budget: Budget = new Budget()): SearchContext {
  const { lines, endsWithNewline } = splitBlock(old);
  const scored = new Map<number, Map<string, number>>();
  const lineSimilarity = (want: string, line: number): number => {
    const known = scored.get(line)?.get(want);
    if (known !== undefined) return known;
    const s = similarity(want, text.trimmedLine(line), LINE_FLOOR, budget);
    if (budget.exhausted) return s;
    const row = scored.get(line) ?? new Map<string, number>();
    row.set(want, s);
    scored.set(line, row);
    return s;
  };
  let anchored: { run: string; offset: number; line: number } | undefined;
  const anchor = () => (anchored ??= longestAnchor(old));
  return {
    content: text.text,
    old,
    text,
    oldLines: lines,
    oldEndsWithNewline: endsWithNewline,
    budget,
    lineSimilarity,
    anchor,
  };
}

/** True for characters that break an anchor run: whitespace, and what typographic punctuation folds to. */
function breaksAnchor(c: number, ch: string): boolean {
  if (c === 32 || c === 9 || c === 10 || c === 13 || c === 39 || c === 34 || c === 45 || c === 46) return true;
  return (c === 11 || c === 12 || c > 127) && /\s/.test(ch);
}

/** The longest anchor run of `old` (see SearchContext.anchor), found in one pass over its characters. */
function longestAnchor(old: string): { run: string; offset: number; line: number } {
  let best = { offset: 0, length: 0, line: 0 };
  let from = 0;
  let line = 0;
  for (let i = 0; i <= old.length; i++) {
    const c = i < old.length ? old.charCodeAt(i) : 32;
    if (!breaksAnchor(c, old[i] ?? ' ')) continue;
    if (i - from > best.length) best = { offset: from, length: i - from, line };
    if (c === 10) line++;
    from = i + 1;
  }
  return { run: old.slice(best.offset, best.offset + best.length), offset: best.offset, line: best.line };
}

/**
 * Every candidate of a rung, sorted by place, one per distinct span. Most rungs yield places in order already
 * (the exact rung: ascending starts, thousands of them for a replaceAll): that case is one pass, no sort.
 */
export function distinctPlaces(found: Iterable<Candidate>): Candidate[] {
  const out = Array.isArray(found) ? (found as Candidate[]) : [...found];
  let ordered = true;
  for (let i = 1; i < out.length && ordered; i++) {
    const a = out[i - 1] as Candidate;
    const b = out[i] as Candidate;
    ordered = a.start < b.start || (a.start === b.start && a.end < b.end);
  }
  if (ordered) return out;
  const seen = new Set<string>();
  const distinct: Candidate[] = [];
  for (const c of out) {
    const key = `${c.start}:${c.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push(c);
  }
  return distinct.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Markers a read tool leaves where it cut a long line (lines over 2,000 chars are cut with a marker):
 * Landfall's own read tool (src/main/tools/read.ts: `… [line cut: N characters in all]`) and the common
 * `... (line truncated to N chars)` form.
 */
export const TRUNCATION_MARKER = /\[line cut: \d+ characters in all\]|\(line truncated to \d+ chars\)/;
