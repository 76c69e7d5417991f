/**
 * Already applied: the edit's newString already stands in the file, so the call is most likely a retry of an
 * edit that landed before (a lost tool result, a harness retry, a model repeating itself). Landing it again
 * would write newString a second time — a duplicated line, a doubled comment.
 *
 * newString "stands" when, LF-normalised and not blank, it is not a piece of oldString (a deletion proves
 * nothing) and fits exactly one place of the file at the exact or the line-trimmed rung (outside any word).
 *
 * Two moments ask (replace.ts):
 * - before ANY tolerant landing (cosmetic or similarity rung): if newString stands anywhere except strictly
 *   inside the place about to be replaced, the answer is already_applied and nothing is written. A real call
 *   once retried an applied edit and block-anchor landed it again on the edited lines (their drift from
 *   oldString is exactly the edit); a look-alike elsewhere would take a retry just the same. Exact landings are
 *   never held back: oldString standing byte for byte is what the model asked for.
 * - when nothing fits: newString standing near where oldString's own surviving lines point (give or take two
 *   lines), or anywhere when none survive, turns not_found into already_applied.
 */
import type { SearchContext } from './types';
import type { TextIndex } from './text';
import { LADDER } from './replacers/index';
import { cutsToken } from './gates';
import { distinctPlaces, makeContext } from './search';
import { votedWindow } from './closest';

/** A place of newString: offsets into the normalised text. */
export interface Standing {
  start: number;
  end: number;
}

/** The one place newString stands in the file, or undefined (absent, several places, or a piece of oldString). */
export function whereNewStands(ctx: SearchContext, replacement: string): Standing | undefined {
  const text: TextIndex = ctx.text;
  if (replacement.trim().length === 0 || ctx.old.includes(replacement.trim())) return undefined;
  const search = makeContext(text, replacement);
  for (const rung of LADDER.slice(0, 2)) {
    const places = distinctPlaces(rung.find(search)).filter((c) => !cutsToken(text.text, c.start, c.end));
    if (places.length > 1) return undefined;
    const only = places[0];
    if (only) return { start: only.start, end: only.end };
  }
  return undefined;
}

/**
 * Before a tolerant landing on `spans` (normalised offsets): where newString already stands, unless that is
 * strictly inside one of the spans (the edit replaces a larger region holding it: not applied yet).
 */
export function appliedBeforeLanding(
  ctx: SearchContext,
  replacement: string,
  spans: readonly Standing[],
): Standing | undefined {
  const stands = whereNewStands(ctx, replacement);
  if (!stands) return undefined;
  const inside = spans.some(
    (s) => stands.start >= s.start && stands.end <= s.end && (stands.start > s.start || stands.end < s.end),
  );
  return inside ? undefined : stands;
}

/** When nothing fits: where newString stands, if that is where oldString's surviving lines point (see above). */
export function appliedInsteadOfMissing(ctx: SearchContext, replacement: string): Standing | undefined {
  const stands = whereNewStands(ctx, replacement);
  if (!stands) return undefined;
  const first = ctx.text.lineOf(stands.start) + 1;
  const last = ctx.text.lineOf(Math.max(stands.start, stands.end - 1)) + 1;
  const voted = votedWindow(ctx);
  const near = !voted || (voted.first + 1 <= last + 2 && voted.last + 1 >= first - 2);
  return near ? stands : undefined;
}
