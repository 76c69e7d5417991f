/**
 * replace(): the ONE decision loop of the edit engine (DESIGN §2). Pure: strings in, Result out.
 *
 * Algorithm
 * 1. Normalise: the file's BOM is set aside and CRLF read as LF; oldString/newString get the same treatment (and
 *    lose a CR both end with: half of a CRLF cut on LF).
 *    old === new (or equal once line endings are normalised, B14) → no_change. Empty oldString: fills an empty
 *    file, else too_broad (B10). An oldString holding the read tool's "line truncated" marker → not_found.
 * 2. Run the ladder (replacers/index.ts), strict to loose. For each rung, collect its distinct places and judge:
 *    - the replacement for each place is built by inverse distortion (distortion.ts);
 *    - span gate and fidelity gate drop places that swallow too much or rest on an invented line (gates.ts);
 *    - token boundary: places cutting a word or number are no fit unless the replacement keeps the fragment;
 *    - uniqueness gate: more than one fit (or no fit but several places) → ambiguous AT THIS RUNG; never a slide to
 *      a looser rung, never a best-of guess (B03, B11). One fit → land. replaceAll → every non-overlapping fit.
 *    - a rung whose search budget ran out → search_budget (never a silent not_found).
 * 3. Nothing fits: too_broad if only span-gated places existed; already_applied if newString (not inside
 *    oldString) fits exactly one place; else not_found with the closest region.
 * 4. Land: splice the replacement into the raw text (landing.ts): bytes outside the span untouched, the span's
 *    line ending and the BOM kept. A landing that changes no byte is no_change.
 *
 * Choice documented for issue 2: replace() RETURNS `Result` for every expected failure and never throws for one;
 * a throw means a bug.
 */
import type { Result } from '../../shared/errors';
import { ok } from '../../shared/errors';
import type { Candidate, SearchContext } from './types';
import type { NormalizedFile } from './line-endings';
import { dropDanglingCr, normalizeArgument, normalizeFile } from './line-endings';
import type { Plan, ReplaceSuccess } from './landing';
import { lineRange, render, success } from './landing';
import { LADDER } from './replacers/index';
import { buildReplacement, type Replacement } from './distortion';
import { alignToIndentation, cutsToken, keepsTokens, passesFidelityGate, passesSpanGate } from './gates';
import { Budget } from './similarity';
import { TextIndex } from './text';
import { TRUNCATION_MARKER, distinctPlaces, makeContext } from './search';
import { closestRegion, votedWindow } from './closest';
import * as failures from './failures';

/**
 * Options of replace(): replaceAll lands on every fitting place of the first rung that finds any; budget caps the
 * search work (Myers word operations, default DEFAULT_BUDGET in similarity.ts) — past it the answer is search_budget.
 */
export interface ReplaceOptions {
  replaceAll?: boolean;
  budget?: number;
}

interface Judged {
  candidate: Candidate;
  replacement: Replacement;
}

type RungOutcome = Result<Plan> | { gated: Judged } | undefined;

function piecesOf(judged: readonly Judged[]): Plan['pieces'] {
  return judged.map((j) => ({ start: j.candidate.start, end: j.replacement.end, text: j.replacement.text }));
}

function nonOverlapping(judged: readonly Judged[]): Judged[] {
  const out: Judged[] = [];
  let reach = -1;
  for (const j of judged) {
    if (j.candidate.start < reach) continue;
    out.push(j);
    reach = Math.max(j.replacement.end, j.candidate.start + 1);
  }
  return out;
}

/** Judge one rung's places (uniqueness, span, fidelity and token gates). undefined: go on to the next rung. */
function decide(
  ctx: SearchContext,
  found: Candidate[],
  old: string,
  replacement: string,
  replaceAll: boolean,
): RungOutcome {
  const judged = found.map((place) => {
    const candidate = alignToIndentation(ctx.content, place);
    return { candidate, replacement: buildReplacement(ctx.content, candidate, old, replacement) };
  });
  const faithful = judged.filter((j) => passesFidelityGate(j.candidate));
  const places = faithful.filter((j) =>
    passesSpanGate(j.candidate, ctx.content.slice(j.candidate.start, j.replacement.end)),
  );
  if (places.length === 0) {
    // faithful places that only the span gate refused: remembered for a too_broad answer if nothing lands
    const gated = faithful[0];
    return gated ? { gated } : undefined;
  }
  const rung = places[0]?.candidate.rung ?? 'simple';
  const where = (js: readonly Judged[]) => js.map((j) => lineRange(ctx.text, j.candidate.start, j.replacement.end));
  const fits = places.filter(
    (j) =>
      !cutsToken(ctx.content, j.candidate.start, j.replacement.end) ||
      keepsTokens(ctx.content, j.candidate.start, j.replacement.end, j.replacement.text),
  );
  if (fits.length > 1 && !replaceAll) return failures.ambiguous(rung, where(fits));
  if (fits.length === 0) {
    if (places.length > 1 && !replaceAll) return failures.ambiguous(rung, where(places));
    return failures.cutsWord(rung, ctx.text.lineOf(places[0]?.candidate.start ?? 0) + 1);
  }
  const chosen = replaceAll ? nonOverlapping(fits) : fits;
  const corrections = [...new Set(chosen.flatMap((j) => j.replacement.corrections))];
  return ok({ rung, pieces: piecesOf(chosen), corrections });
}

/**
 * Already applied: newString (not a piece of oldString) fits exactly one place at the strict rungs, and that place
 * is where the edit would have gone — when some lines of oldString still stand in the file (its unchanged
 * context), the place must overlap the window they point at (give or take two lines).
 */
function findAlreadyApplied(
  ctx: SearchContext,
  replacement: string,
): { startLine: number; endLine: number } | undefined {
  const text = ctx.text;
  if (replacement.trim().length === 0 || ctx.old.includes(replacement.trim())) return undefined;
  const search = makeContext(text, replacement);
  for (const rung of LADDER.slice(0, 2)) {
    const places = distinctPlaces(rung.find(search)).filter((c) => !cutsToken(text.text, c.start, c.end));
    if (places.length > 1) return undefined;
    const only = places[0];
    if (!only) continue;
    const range = lineRange(text, only.start, only.end);
    const voted = votedWindow(ctx);
    const near = !voted || (voted.first + 1 <= range.endLine + 2 && voted.last + 1 >= range.startLine - 2);
    return near ? range : undefined;
  }
  return undefined;
}

/** Run the ladder for one edit against a normalised file. Exported for applyEdits (multi.ts). */
export function planEdit(
  text: TextIndex,
  oldString: string,
  newString: string,
  options: ReplaceOptions = {},
): Result<Plan> {
  const [old, replacement] = dropDanglingCr(normalizeArgument(oldString), normalizeArgument(newString));
  if (oldString === newString || old === replacement) return failures.noChange(oldString !== newString);
  if (old.length === 0) {
    return text.text.length === 0
      ? ok({ rung: 'create', pieces: [{ start: 0, end: 0, text: replacement }], corrections: [] })
      : failures.emptyOld();
  }
  const marker = TRUNCATION_MARKER.exec(old);
  if (marker && !text.text.includes(marker[0])) return failures.truncatedMarker();
  const ctx = makeContext(text, old, new Budget(options.budget));
  let gated: Judged | undefined;
  for (const rung of LADDER) {
    const found = distinctPlaces(rung.find(ctx));
    if (ctx.budget.exhausted) return failures.budgetHit(rung.name);
    if (found.length === 0) continue;
    const outcome = decide(ctx, found, old, replacement, options.replaceAll === true);
    if (outcome === undefined) continue;
    if ('gated' in outcome) {
      gated ??= outcome.gated;
      continue;
    }
    return outcome;
  }
  if (gated) {
    const range = lineRange(text, gated.candidate.start, gated.replacement.end);
    return failures.spanTooBroad(gated.candidate.rung, range.startLine, range.endLine);
  }
  const applied = findAlreadyApplied(ctx, replacement);
  if (applied) return failures.alreadyApplied(applied.startLine, applied.endLine);
  return failures.notFound(closestRegion(ctx));
}

/**
 * Land one edit on a file's text.
 * @param content the whole file text as read (may hold a BOM and CRLF line breaks; both are kept).
 * @param oldString the text to replace, as the model recalls it; empty only to fill an empty file.
 * @param newString the replacement; written verbatim unless the landing rung corrected a distortion of oldString
 *   that newString shares (indentation frame, escaping, read-tool prefixes, surrounding blank lines).
 * @returns ok(ReplaceSuccess) — new content, the rung, the replaced span as UTF-16 offsets into `content`, its
 *   1-based lines, the number of replacements — or a failure with code not_found | ambiguous | no_change |
 *   too_broad | already_applied | search_budget (see failures.ts). Never throws for an expected failure.
 */
export function replace(
  content: string,
  oldString: string,
  newString: string,
  options: ReplaceOptions = {},
): Result<ReplaceSuccess> {
  const file: NormalizedFile = normalizeFile(content);
  const text = new TextIndex(file.text);
  const planned = planEdit(text, oldString, newString, options);
  if (!planned.ok) return planned;
  const rendered = render(content, file, text, planned.value.pieces);
  if (rendered.content === content) return failures.noChange(false);
  return ok(success(planned.value, rendered.content, rendered.spans));
}
