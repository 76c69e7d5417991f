/**
 * replace(): the ONE decision loop of the edit engine (DESIGN §2). Pure: strings in, Result out.
 *
 * Algorithm
 * 1. Normalise: the file's BOM is set aside and CRLF read as LF; oldString/newString get the same treatment (and
 *    lose a CR both end with: half of a CRLF cut on LF).
 *    old === new (or equal once line endings are normalised, fixtures/bugs/README.md B14) → no_change. newString
 *    holding oldString where every occurrence of oldString already reads as newString → already_applied
 *    (already-applied.ts readsAsNew: a retried append). Empty oldString: fills an empty
 *    file, else too_broad (fixtures/bugs/README.md B10). An oldString holding the read tool's "line truncated" marker → not_found.
 * 2. Run the ladder (replacers/index.ts), strict to loose. For each rung, collect its distinct places and judge:
 *    - the replacement for each place is built by inverse distortion (distortion.ts);
 *    - span gate and fidelity gate drop places that swallow too much or rest on an invented line (gates.ts);
 *    - token boundary: places cutting a word or number are no fit unless the replacement keeps the fragment;
 *    - whole lines: a line-shaped oldString (ending in a line break) never lands on part of a line;
 *    - uniqueness gate: more than one fit (or no fit but several places) → ambiguous; never a slide to a looser
 *      rung, never a best-of guess (fixtures/bugs/README.md B03, B11). One fit → land. replaceAll → every non-overlapping fit.
 *    - a tolerant (non-exact) fit lands only when newString does not already stand in the file (a retry of an
 *      applied edit: already_applied, already-applied.ts) and, for a single landing, when no later rung that
 *      counts with it finds another place (cross-rung.ts) — uniqueness is judged on places, across rungs;
 *    - a rung whose search budget ran out → search_budget (never a silent not_found).
 *    (judge.ts applies the gates; the order is fidelity, span, whole lines, token boundary.)
 * 3. Nothing fits: too_broad if only span-gated places existed; already_applied if newString (not inside
 *    oldString) fits exactly one place where oldString's lines point; not_found naming the line when the only fit
 *    was part of a line; else not_found with the closest region.
 *    A chosen place whose newString cannot be put in the file's indentation (indentation.ts: oldString's levels do
 *    not map onto the file's one to one) → indentation_conflict; mixed indentation is never written.
 * 4. Land: splice the replacement into the raw text (landing.ts): bytes outside the span untouched, the span's
 *    line ending and the BOM kept. A landing that changes no byte is no_change.
 *
 * Cost of the common case: an exact unique match is one search and one uniqueness check. Nothing is indexed,
 * normalised or scored before a rung needs it: a CRLF file is searched raw for a one-line oldString
 * (line-endings.ts RawLineView), line indices are built by the first line-based rung, line numbers of a landing
 * are counted when read (landing.ts landingOf).
 *
 * A deliberate choice: replace() RETURNS `Result` for every expected failure and never throws for one;
 * a throw means a bug.
 */
import type { Result } from '../../../shared/errors';
import { ok } from '../../../shared/errors';
import type { SearchContext } from './types';
import { RawLineView, dropDanglingCr, normalizeArgument, normalizeFile } from './line-endings';
import type { FileView } from './line-endings';
import type { Plan, ReplaceSuccess } from './landing';
import { landingOf, lineRange, renderPlan } from './landing';
import { LADDER } from './replacers/index';
import { judge, type Judged, type Judgement } from './judge';
import { appliedBeforeLanding, appliedInsteadOfMissing, readsAsNew, type Standing } from './already-applied';
import { otherPlaces } from './cross-rung';
import { Budget } from './similarity';
import { TextIndex } from './text';
import { TRUNCATION_MARKER, distinctPlaces, makeContext } from './search';
import { closestRegion } from './closest';
import { exactPlan } from './exact';
import * as failures from './failures';

/**
 * Options of replace(): replaceAll lands on every fitting place of the first rung that finds any; budget caps the
 * search work (Myers word operations, default DEFAULT_BUDGET in similarity.ts) — past it the answer is search_budget.
 */
export interface ReplaceOptions {
  replaceAll?: boolean;
  budget?: number;
}

/** oldString and newString as the engine compares them (LF, no BOM, no dangling CR), or the answer already. */
type Prepared = { old: string; replacement: string } | Result<Plan>;

function prepare(text: string, oldString: string, newString: string): Prepared {
  const [old, replacement] = dropDanglingCr(normalizeArgument(oldString), normalizeArgument(newString));
  if (oldString === newString || old === replacement) return failures.noChange(oldString !== newString);
  if (old.length === 0) {
    return text.length === 0
      ? ok({ rung: 'create', pieces: [{ start: 0, end: 0, text: replacement }], corrections: [] })
      : failures.emptyOld();
  }
  const marker = TRUNCATION_MARKER.exec(old);
  if (marker && !text.includes(marker[0])) return failures.truncatedMarker();
  const stands = readsAsNew(text, old, replacement);
  if (stands) {
    const line = (at: number): number => text.slice(0, at).split('\n').length;
    return failures.alreadyApplied(line(stands.start), line(Math.max(stands.start, stands.end - 1)), true);
  }
  return { old, replacement };
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

/** The uniqueness gate on one rung's judged places: the fits to land, or ambiguous / a cut word. */
function decide(ctx: SearchContext, j: Judgement, replaceAll: boolean): Result<Judged[]> {
  const rung = j.places[0]?.candidate.rung ?? 'simple';
  const where = (js: readonly Judged[]) => js.map((x) => lineRange(ctx.text, x.candidate.start, x.replacement.end));
  if (j.fits.length > 1 && !replaceAll) return failures.ambiguous(rung, where(j.fits));
  if (j.fits.length === 0) {
    if (j.places.length > 1 && !replaceAll) return failures.ambiguous(rung, where(j.places));
    return failures.cutsWord(rung, ctx.text.lineOf(j.places[0]?.candidate.start ?? 0) + 1);
  }
  return ok(replaceAll ? nonOverlapping(j.fits) : j.fits);
}

function applied(ctx: SearchContext, stands: Standing): Result<never> {
  const range = lineRange(ctx.text, stands.start, stands.end);
  return failures.alreadyApplied(range.startLine, range.endLine);
}

/**
 * What must hold before a tolerant rung may land `chosen`: newString — as sent, and as the landing would write
 * it — does not already stand in the file (already-applied.ts), and, for a single landing, no other rung counting with this one finds another place
 * (cross-rung.ts). undefined: land.
 */
function holdTolerant(
  ctx: SearchContext,
  at: number,
  chosen: readonly Judged[],
  old: string,
  replacement: string,
): Result<never> | undefined {
  const spans = chosen.map((j) => ({ start: j.candidate.start, end: j.replacement.end }));
  // newString as sent, and as this landing would write it (inverse distortion: rebased, trimmed, unescaped); a
  // replaceAll over many places rebases alike, so a few distinct forms stand for all (each one costs a search)
  const written = [...new Set([replacement, ...chosen.map((j) => j.replacement.text)])].slice(0, MAX_WRITTEN_FORMS);
  for (const text of written) {
    const stands = appliedBeforeLanding(ctx, text, spans);
    if (stands) return applied(ctx, stands);
  }
  const winner = chosen[0];
  return chosen.length === 1 && winner ? otherPlaces(ctx, at, winner, old, replacement) : undefined;
}

/** How many distinct written forms of newString the already-applied check searches for. */
const MAX_WRITTEN_FORMS = 8;

interface Remembered {
  gated?: Judged;
  partial?: Judged;
}

/**
 * Run the rungs strict to loose; the first rung with a place decides (see module doc). The exact rung goes
 * through its lean path first (exact.ts); when oldString is absent, no exact rung runs again.
 * undefined: no rung had a place (what was refused by the span or whole-line gates is left in `seen`).
 */
function climb(
  ctx: SearchContext,
  old: string,
  replacement: string,
  replaceAll: boolean,
  seen: Remembered,
  exactAbsent: boolean,
): Result<Plan> | undefined {
  let absent = exactAbsent;
  for (let at = 0; at < LADDER.length; at++) {
    const rung = LADDER[at];
    if (!rung || (absent && rung.kind === 'exact')) continue;
    if (rung.name === 'simple') {
      const lean = exactPlan(ctx.content, old, replacement, replaceAll);
      if (lean === 'absent') absent = true;
      else if (lean) return ok(lean);
      if (absent) continue;
    }
    const found = distinctPlaces(rung.find(ctx));
    if (ctx.budget.exhausted) return failures.budgetHit(rung.name);
    if (found.length === 0) continue;
    const judged = judge(ctx, found, old, replacement, rung.kind);
    if (judged.places.length === 0) {
      seen.gated ??= judged.gated;
      seen.partial ??= judged.partial;
      continue;
    }
    const decided = decide(ctx, judged, replaceAll);
    if (!decided.ok) return decided;
    const chosen = decided.value;
    const conflicted = chosen.find((j) => j.replacement.indentConflict !== undefined);
    if (conflicted) {
      const range = lineRange(ctx.text, conflicted.candidate.start, conflicted.replacement.end);
      return failures.indentConflict(
        rung.name,
        range.startLine,
        range.endLine,
        conflicted.replacement.indentConflict ?? '',
      );
    }
    const held = rung.kind === 'exact' ? undefined : holdTolerant(ctx, at, chosen, old, replacement);
    if (held) return held;
    const pieces = chosen.map((j) => ({ start: j.candidate.start, end: j.replacement.end, text: j.replacement.text }));
    const corrections = new Set<string>();
    for (const j of chosen) for (const c of j.replacement.corrections) corrections.add(c);
    return ok({ rung: rung.name, pieces, corrections: [...corrections] });
  }
  return undefined;
}

/** Nothing landed: too_broad, already_applied, a whole-line edit on part of a line, or not_found (in that order). */
function refuse(ctx: SearchContext, replacement: string, seen: Remembered): Result<never> {
  if (seen.gated) {
    const range = lineRange(ctx.text, seen.gated.candidate.start, seen.gated.replacement.end);
    return failures.spanTooBroad(seen.gated.candidate.rung, range.startLine, range.endLine);
  }
  const stands = appliedInsteadOfMissing(ctx, replacement);
  if (stands) return applied(ctx, stands);
  if (seen.partial) {
    return failures.partialLine(seen.partial.candidate.rung, ctx.text.lineOf(seen.partial.candidate.start) + 1);
  }
  return failures.notFound(closestRegion(ctx));
}

/**
 * Run the ladder for one edit against a normalised file. Exported for applyEdits (multi.ts). `exactAbsent`:
 * the caller already knows oldString does not occur exactly (the exact rungs are skipped).
 */
export function planEdit(
  text: TextIndex,
  oldString: string,
  newString: string,
  options: ReplaceOptions = {},
  exactAbsent = false,
): Result<Plan> {
  const prepared = prepare(text.text, oldString, newString);
  if ('ok' in prepared) return prepared;
  const { old, replacement } = prepared;
  const ctx = makeContext(text, old, new Budget(options.budget));
  const seen: Remembered = {};
  return climb(ctx, old, replacement, options.replaceAll === true, seen, exactAbsent) ?? refuse(ctx, replacement, seen);
}

/**
 * The exact rung on the raw text, when oldString has no line break and no CR (RawLineView): no LF copy is made
 * and the file is not even checked for CRLF. A landing is final; 'absent' tells the full ladder to skip the exact
 * rungs (what is absent from the raw text is absent from the LF text); undefined: the full ladder decides.
 */
function exactOnRawLines(view: RawLineView, oldString: string, newString: string, replaceAll: boolean) {
  const prepared = prepare(view.text, oldString, newString);
  if ('ok' in prepared || /[\r\n]/.test(prepared.old)) return undefined;
  // newString holding oldString is judged on the LF text (readsAsNew compares newString's line breaks)
  if (prepared.replacement.includes(prepared.old)) return undefined;
  return exactPlan(view.text, prepared.old, prepared.replacement, replaceAll);
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
  const file = normalizeFile(content);
  let view: FileView = file;
  const raw = new RawLineView(file);
  const exact = exactOnRawLines(raw, oldString, newString, options.replaceAll === true);
  let planned: Result<Plan>;
  if (exact && exact !== 'absent') {
    planned = ok(exact);
    view = raw;
  } else planned = planEdit(new TextIndex(file.text), oldString, newString, options, exact === 'absent');
  if (!planned.ok) return planned;
  const rendered = renderPlan(content, view, planned.value);
  if (!rendered.changed) return failures.noChange(false);
  return ok(landingOf(planned.value, rendered.content, content, rendered.starts, rendered.ends));
}
