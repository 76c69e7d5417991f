/**
 * Building the search context the replacers share, and the small candidate utilities the loop uses.
 */
import type { Candidate, SearchContext } from './types';
import { Budget } from './similarity';
import type { TextIndex } from './text';
import { splitBlock } from './text';

/** A search context over `text` for `old` (both already normalised). */
export function makeContext(text: TextIndex, old: string, budget: Budget = new Budget()): SearchContext {
  const { lines, endsWithNewline } = splitBlock(old);
  return { content: text.text, old, text, oldLines: lines, oldEndsWithNewline: endsWithNewline, budget };
}

/** Every candidate of a rung, sorted by place, one per distinct span. */
export function distinctPlaces(found: Iterable<Candidate>): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of found) {
    const key = `${c.start}:${c.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Markers a read tool leaves where it cut a long line (issue 2 §4: lines over 2,000 chars are cut with a marker):
 * Landfall's own read tool (src/main/tools/read.ts: `… [line cut: N characters in all]`) and the common
 * `... (line truncated to N chars)` form.
 */
export const TRUNCATION_MARKER = /\[line cut: \d+ characters in all\]|\(line truncated to \d+ chars\)/;
