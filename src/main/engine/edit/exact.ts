/**
 * The exact rung's lean path: what the decision loop decides for the simple rung, in one pass over the text and
 * without building a candidate per occurrence (replace.ts runs it first; judge.ts is the general form).
 *
 * An exact place needs no inverse distortion (newString is written verbatim), passes the span and fidelity gates
 * by definition, and is judged by the two gates left (gates.ts placeFit): whole lines for a line-shaped
 * oldString, and the token boundary. So:
 * - one edit: the first fitting occurrence, then a search for a second one; exactly one → land. Cost: one
 *   indexOf over the text and one uniqueness search after it.
 * - replaceAll: every fitting occurrence left to right, skipping those that overlap a chosen one, in the same
 *   single pass.
 * Everything else — no fit, two fits (ambiguous), an oldString starting with blanks found inside a line's
 * indentation (it is widened to the line start and newString rebased, gates.ts alignToIndentation) — is left to
 * the general loop (undefined), which gives the answer.
 */
import type { Plan } from './landing';
import { placeFit } from './gates';

/**
 * The simple rung's landing of `old` → `replacement` in `text` (both LF-normalised); 'absent' when oldString does
 * not occur at all (no exact rung can find anything); undefined to leave the decision to the general loop.
 */
export function exactPlan(
  text: string,
  old: string,
  replacement: string,
  replaceAll: boolean,
): Plan | 'absent' | undefined {
  if (old.length === 0) return undefined;
  const first = old.charCodeAt(0);
  const blankFirst = first === 32 || first === 9;
  const lineShaped = old.endsWith('\n');
  const n = old.length;
  const starts: number[] = [];
  let reach = -1;
  const found = text.indexOf(old);
  if (found === -1) return 'absent';
  for (let at = found; at !== -1; at = text.indexOf(old, at + 1)) {
    if (blankFirst && widensToLineStart(text, at)) return undefined;
    if ((replaceAll && at < reach) || placeFit(text, at, at + n, replacement, lineShaped) !== 'fit') continue;
    if (!replaceAll && starts.length === 1) return undefined;
    starts.push(at);
    reach = at + Math.max(n, 1);
    if (replaceAll) at = reach - 1;
  }
  if (starts.length === 0) return undefined;
  return { rung: 'simple', pieces: [], corrections: [], repeat: { starts, length: n, text: replacement } };
}

/** True when blanks alone stand between the line start and `at`, `at` not being the line start itself. */
function widensToLineStart(text: string, at: number): boolean {
  let s = at;
  while (s > 0 && (text.charCodeAt(s - 1) === 32 || text.charCodeAt(s - 1) === 9)) s--;
  return s < at && (s === 0 || text.charCodeAt(s - 1) === 10);
}
