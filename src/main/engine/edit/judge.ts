/**
 * Judging one rung's places: every gate of the decision loop, in order, for every place (DESIGN §2).
 *
 * For each place: widen to the line start when oldString began inside the indentation (gates.ts
 * alignToIndentation), build its replacement by inverse distortion (distortion.ts), then
 * 1. fidelity gate — a similarity-scored place resting on an invented line is dropped;
 * 2. span gate — a place that swallows much more than oldString is dropped, remembered as `gated` (too_broad);
 * 3. whole lines — a place covering part of a line is dropped, remembered as `partial` (answered not_found
 *    naming that line), when oldString is line-shaped (it ends with a line break), or when it spans several lines
 *    and the rung is tolerant: a block of lines recalled with a tolerance (whitespace around it, quotes) is the
 *    model's memory of whole lines, so its last line never lands on the front of a longer line (a lost trailing
 *    comma then moves behind the new text). An exact multi-line match may start or end inside a line: those are
 *    the model's own bytes;
 * 4. token boundary — a place cutting a word, number or character is a `place` but not a `fit`, unless the
 *    replacement keeps the cut fragment.
 * The loop decides on `fits` (and on `places` for the ambiguity of token-cut places).
 */
import type { Candidate, RungKind, SearchContext } from './types';
import { buildReplacement, type Replacement } from './distortion';
import { alignToIndentation, coversWholeLines, measure, passesFidelityGate, passesSpanGate, placeFit } from './gates';

/** A place with the replacement the loop would write there. */
export interface Judged {
  candidate: Candidate;
  replacement: Replacement;
}

/** One rung's places sorted by what the gates said. */
export interface Judgement {
  /** Places that passed every gate. */
  fits: Judged[];
  /** Places that passed fidelity, span and whole-line gates (fits, plus places cutting a token). */
  places: Judged[];
  /** A faithful place the span gate refused (evidence for too_broad). */
  gated?: Judged;
  /** A place refused only because it covers part of a line while oldString is whole lines. */
  partial?: Judged;
}

/**
 * An upper bound of gates.ts measure() for the whole-line span [start, end): its non-blank lines and the sum of
 * its trimmed line lengths (inner whitespace counted too), from the line index the line rungs filled already.
 */
function lineSizeBound(ctx: SearchContext, start: number, end: number): { lines: number; chars: number } {
  const first = ctx.text.lineOf(start);
  const last = ctx.text.lineOf(Math.max(start, end - 1));
  let lines = 0;
  let chars = 0;
  for (let i = first; i <= last; i++) {
    const n = ctx.text.trimmedLine(i).length;
    chars += n;
    if (n > 0) lines++;
  }
  return { lines, chars };
}

/** Judge every place of one rung (of `kind`) against `old` → `replacement` (both LF-normalised). */
export function judge(
  ctx: SearchContext,
  found: readonly Candidate[],
  old: string,
  replacement: string,
  kind: RungKind,
): Judgement {
  const lineShaped = old.endsWith('\n') || (kind !== 'exact' && old.includes('\n'));
  const out: Judgement = { fits: [], places: [] };
  let sized: { matched: string; size: ReturnType<typeof measure> } | undefined;
  const sizeOf = (matched: string) =>
    (sized?.matched === matched ? sized : (sized = { matched, size: measure(matched) })).size;
  for (const place of found) {
    const candidate = alignToIndentation(ctx.content, place);
    const judged = { candidate, replacement: buildReplacement(ctx.content, candidate, old, replacement) };
    if (!passesFidelityGate(candidate)) continue;
    const span = ctx.content.slice(candidate.start, judged.replacement.end);
    const upper = candidate.lineAligned ? lineSizeBound(ctx, candidate.start, judged.replacement.end) : undefined;
    if (kind !== 'exact' && !passesSpanGate(candidate, span, sizeOf(candidate.matched), upper)) {
      out.gated ??= judged;
      continue;
    }
    // whole lines are judged on the place as found; the token boundary on the span the replacement covers
    if (lineShaped && !coversWholeLines(ctx.content, candidate.start, candidate.end)) {
      out.partial ??= judged;
      continue;
    }
    out.places.push(judged);
    const fit = placeFit(ctx.content, candidate.start, judged.replacement.end, judged.replacement.text, false);
    if (fit === 'fit') out.fits.push(judged);
  }
  return out;
}
