/**
 * Already applied: the edit's newString already stands in the file, so the call is most likely a retry of an
 * edit that landed before (a lost tool result, a harness retry, a model repeating itself). Landing it again
 * would write newString a second time — a duplicated line, a doubled comment.
 *
 * newString "stands" at the places where, LF-normalised and not blank, it fits at the exact rung, else at the
 * line-trimmed rung (outside any word) — unless it is a piece of oldString (a deletion proves nothing).
 *
 * Two moments ask (replace.ts):
 * - before ANY tolerant landing (cosmetic or similarity rung): if newString stands anywhere except strictly
 *   inside the place about to be replaced, the answer is already_applied and nothing is written. A real call
 *   once retried an applied edit and block-anchor landed it again on the edited lines (their drift from
 *   oldString is exactly the edit); a cosmetic look-alike elsewhere would take a retry just the same, and so it
 *   would when newString stood twice. The price is a refusal when a tolerant edit's newString exists already
 *   somewhere else; the model then copies oldString exactly, and exact landings are never held back (oldString
 *   standing byte for byte is what the model asked for).
 * - when nothing fits: newString standing at exactly one place, near where oldString's own surviving lines point
 *   (give or take two lines), or anywhere when none survive, turns not_found into already_applied.
 *
 * And one moment before any rung runs (replace.ts prepare, readsAsNew): when newString holds oldString (an append,
 * a wrapper) and EVERY occurrence of oldString in the file lies inside an occurrence of newString at that same
 * offset, the text already reads as newString wherever oldString stands: a retried `x = 1\ny = 2\n` →
 * `x = 1\ny = 2\nz = 3\n` would otherwise match oldString exactly and add `z = 3` a second time. One occurrence
 * outside newString is a place the edit can still mean, and the ladder decides as usual; so does a newString that
 * only adds blanks around oldString (an indentation change: rebased, or no_change when the bytes stay).
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

/** Every place newString stands in the file (see module doc); [] when absent or a piece of oldString. */
export function whereNewStands(ctx: SearchContext, replacement: string): Standing[] {
  const text: TextIndex = ctx.text;
  if (replacement.trim().length === 0 || ctx.old.includes(replacement.trim())) return [];
  const search = makeContext(text, replacement);
  // one line without blanks around it: the line-trimmed rung could only find what the exact one did not
  const rungs = replacement.includes('\n') || replacement.trim() !== replacement ? 2 : 1;
  for (const rung of LADDER.slice(0, rungs)) {
    const places = distinctPlaces(rung.find(search)).filter((c) => !cutsToken(text.text, c.start, c.end));
    if (places.length > 0) return places.map((c) => ({ start: c.start, end: c.end }));
  }
  return [];
}

/**
 * Before a tolerant landing on `spans` (normalised offsets): the first place newString already stands that is not
 * strictly inside one of the spans (there the edit replaces a larger region holding it: not applied yet), both
 * compared without the whitespace at their edges (a whole-line span and newString found after the indentation
 * are the same place).
 */
export function appliedBeforeLanding(
  ctx: SearchContext,
  replacement: string,
  spans: readonly Standing[],
): Standing | undefined {
  const text = ctx.text.text;
  const trimmed = spans.map((s) => trimSpan(text, s));
  const strictlyInside = (place: Standing): boolean => {
    const p = trimSpan(text, place);
    return trimmed.some((s) => p.start >= s.start && p.end <= s.end && (p.start > s.start || p.end < s.end));
  };
  return whereNewStands(ctx, replacement).find((p) => !strictlyInside(p));
}

/** The span without the whitespace at its edges (indentation, line breaks): places compared on their text. */
function trimSpan(text: string, span: Standing): Standing {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start] ?? '')) start++;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  return { start, end };
}

/** When nothing fits: where newString stands, if that is where oldString's surviving lines point (see above). */
export function appliedInsteadOfMissing(ctx: SearchContext, replacement: string): Standing | undefined {
  const places = whereNewStands(ctx, replacement);
  const stands = places.length === 1 ? places[0] : undefined;
  if (!stands) return undefined;
  const first = ctx.text.lineOf(stands.start) + 1;
  const last = ctx.text.lineOf(Math.max(stands.start, stands.end - 1)) + 1;
  const voted = votedWindow(ctx);
  const near = !voted || (voted.first + 1 <= last + 2 && voted.last + 1 >= first - 2);
  return near ? stands : undefined;
}

/**
 * The first place newString stands when every occurrence of `old` in `text` lies inside an occurrence of
 * `replacement` at the offset where `old` stands in `replacement` (see module doc), else undefined; undefined too
 * when `old` stands in `replacement` more than once (the mapping is not provable). Both strings LF-normalised like `text`.
 * Cost: nothing unless `replacement` contains `old`; then one scan over the occurrences of `old`.
 */
export function readsAsNew(text: string, old: string, replacement: string): Standing | undefined {
  const k = replacement.indexOf(old);
  if (k === -1) return undefined;
  // oldString twice inside newString (`;` in `;;`): which occurrence of the file stood where is not provable, so
  // no claim is made and the ladder decides (a replaceAll of `;` → `;;` on `;;a` must land)
  if (replacement.indexOf(old, k + 1) !== -1) return undefined;
  // only blanks around oldString: an indentation change, which the ladder rebases or answers no_change
  if ((replacement.slice(0, k) + replacement.slice(k + old.length)).trim().length === 0) return undefined;
  let first: Standing | undefined;
  for (let at = text.indexOf(old); at !== -1; at = text.indexOf(old, at + 1)) {
    if (at < k || !text.startsWith(replacement, at - k)) return undefined;
    first ??= { start: at - k, end: at - k + replacement.length };
  }
  return first;
}
