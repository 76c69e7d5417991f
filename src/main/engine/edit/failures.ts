/**
 * The engine's expected failures, as data (src/shared/errors.ts). Each says what happened, gives the next step
 * as the hint, and carries structured detail for the tool and the UI. The not_found text describes the real
 * tolerance rules (fixtures/bugs/README.md B02: never claim byte-exact matching is required when it is not).
 *
 * Codes: not_found, ambiguous, no_change, too_broad, already_applied, search_budget (the search hit its work
 * limit before it could decide: distinct from not_found so a give-up is never silent), and conflict (applyEdits:
 * two edits of one batch overlap), indentation_conflict (newString fits no single indentation at the place found).
 */
import type { Fail } from '../../../shared/errors';
import { fail } from '../../../shared/errors';
import { MAX_LISTED_MATCHES } from './policy';
import type { RungName } from './types';

const TOLERANCE =
  'Tolerated before giving up: different indentation or trailing spaces, runs of spaces, tabs written as spaces, ' +
  'over-escaping, curly quotes and dashes, blank lines around the text, small drift inside lines between exact ' +
  'first and last lines, and read-tool line numbers equal to the real ones.';

/** A closest region of the file, for not_found. */
export interface Closest {
  startLine: number;
  endLine: number;
  similarity: number;
}

/** not_found with the closest region (1-based lines, similarity 0..1; data fields null/0 when none was found). */
export function notFound(closest: Closest | undefined): Fail<'not_found'> {
  const where = closest
    ? ` The closest region is lines ${closest.startLine}-${closest.endLine} (similarity ${closest.similarity.toFixed(2)}).`
    : '';
  return fail(
    'not_found',
    `oldString was not found in the file. ${TOLERANCE}${where}`,
    'Read the file again and copy the exact lines you want to change into oldString.',
    {
      startLine: closest?.startLine ?? null,
      endLine: closest?.endLine ?? null,
      similarity: closest?.similarity ?? 0,
    },
  );
}

/** not_found: the only fits start or end inside a word, number or character (gates.ts cutsToken); `line` is 1-based. */
export function cutsWord(rung: RungName, line: number): Fail<'not_found'> {
  return fail(
    'not_found',
    `oldString only fits inside a longer word, number or character (line ${line}, ${rung} match); replacing it would change that token.`,
    'Read the line again and include the whole word, number or character (with its accents) in oldString.',
    { rung, startLine: line, endLine: line, similarity: 1 },
  );
}

/** not_found: oldString holds the read tool's "line cut" marker, so it cannot be the file's real text (search.ts). */
export function truncatedMarker(): Fail<'not_found'> {
  return fail(
    'not_found',
    'oldString contains the read tool\'s "line truncated" marker: the line was shown cut, so its real text is not in oldString.',
    'Edit a shorter exact piece of that line (read it with an offset), or keep the truncated line out of oldString.',
    { startLine: null, endLine: null, similarity: 0 },
  );
}

/** ambiguous at `rung`: every fitting place as 1-based line ranges (the first MAX_LISTED_MATCHES listed; count is all). */
export function ambiguous(rung: RungName, matches: { startLine: number; endLine: number }[]): Fail<'ambiguous'> {
  const listed = matches.slice(0, MAX_LISTED_MATCHES);
  const where = listed
    .map((m) => (m.startLine === m.endLine ? `${m.startLine}` : `${m.startLine}-${m.endLine}`))
    .join(', ');
  return fail(
    'ambiguous',
    `oldString fits ${matches.length} places (${rung} match), at lines ${where}${matches.length > listed.length ? ', …' : ''}.`,
    'Add surrounding lines to oldString so it fits one place only, or set replaceAll to change every one.',
    { rung, count: matches.length, matches: listed },
  );
}

/**
 * ambiguous across rungs (cross-rung.ts): the tolerant rung `winner` found one place, later rungs found others.
 * `places`: every distinct place, 1-based lines, with the rungs that found it (first MAX_LISTED_MATCHES listed).
 */
export function ambiguousAcross(
  places: { startLine: number; endLine: number; rungs: RungName[] }[],
  winner: RungName,
): Fail<'ambiguous'> {
  const listed = places.slice(0, MAX_LISTED_MATCHES);
  const where = listed
    .map(
      (m) => `${m.rungs.join('/')} match at ${m.startLine === m.endLine ? m.startLine : `${m.startLine}-${m.endLine}`}`,
    )
    .join(', ');
  return fail(
    'ambiguous',
    `oldString is not in the file exactly, and it fits ${places.length} places once whitespace, quotes, dashes or similar drift are tolerated (${where}${places.length > listed.length ? ', …' : ''}).`,
    'Copy oldString exactly from the place you mean (read it again), with enough surrounding lines to fit one place only.',
    {
      rung: winner,
      count: places.length,
      matches: listed.map((m) => ({ startLine: m.startLine, endLine: m.endLine })),
      rungs: listed.map((m) => m.rungs),
    },
  );
}

/**
 * not_found: oldString is whole lines (it ends with a line break, or is a block of lines matched with a
 * tolerance) but its only fit covers part of line `line` (1-based) — a whole-line edit never replaces a piece of
 * a line (gates.ts coversWholeLines, judge.ts).
 */
export function partialLine(rung: RungName, line: number): Fail<'not_found'> {
  return fail(
    'not_found',
    `oldString is whole lines, but it only fits part of line ${line} (${rung} match); a whole-line edit never replaces a piece of a line.`,
    `Read line ${line} again and copy it whole into oldString, including what ends it (commas, brackets, comments).`,
    { rung, startLine: line, endLine: line, similarity: 1 },
  );
}

/** no_change: the edit leaves the file byte-identical; `lineEndingsOnly` when old/new differ only in CRLF vs LF (fixtures/bugs/README.md B14). */
export function noChange(lineEndingsOnly: boolean): Fail<'no_change'> {
  return lineEndingsOnly
    ? fail(
        'no_change',
        'oldString and newString differ only in line endings; line endings are preserved, so nothing would change.',
        'Nothing to do: the file keeps its own line endings.',
      )
    : fail(
        'no_change',
        'The edit would leave the file byte-identical.',
        'Check newString: it must differ from the text it replaces.',
      );
}

/** too_broad: an empty oldString on a non-empty file would replace all of it (fixtures/bugs/README.md B10). */
export function emptyOld(): Fail<'too_broad'> {
  return fail(
    'too_broad',
    'An empty oldString would replace the whole existing file.',
    'Use write to replace a whole file, or put the lines next to the insertion point in oldString.',
  );
}

/** too_broad: the only fit was refused by the span gate (gates.ts); 1-based lines of that fit. */
export function spanTooBroad(rung: RungName, startLine: number, endLine: number): Fail<'too_broad'> {
  return fail(
    'too_broad',
    `The only fit (${rung} match, lines ${startLine}-${endLine}) covers far more text than oldString.`,
    'Read the file again and copy the exact, contiguous lines you want to change.',
    { rung, startLine, endLine },
  );
}

/**
 * already_applied: newString stands at these 1-based lines; nothing was written. `inside`: oldString is still in
 * the file, but only as part of newString (a retried append); else oldString is gone.
 */
export function alreadyApplied(startLine: number, endLine: number, inside = false): Fail<'already_applied'> {
  const old = inside
    ? 'oldString occurs only inside newString, which already stands in the file'
    : 'oldString is not in the file, but newString already is';
  return fail(
    'already_applied',
    `${old} (lines ${startLine}-${endLine}): this edit seems to have landed before. Nothing was written.`,
    'Read those lines to confirm, then go on with the next change.',
    { startLine, endLine },
  );
}

/**
 * indentation_conflict: `rung` found the place (1-based lines) but newString cannot be written in the file's
 * indentation there (`why`, from indentation.ts); nothing was written rather than a mix of two indentations.
 */
export function indentConflict(
  rung: RungName,
  startLine: number,
  endLine: number,
  why: string,
): Fail<'indentation_conflict'> {
  return fail(
    'indentation_conflict',
    `oldString was found at lines ${startLine}-${endLine} (${rung} match) with other indentation than the file has, and ${why}; nothing was written.`,
    'Read those lines again and copy their indentation exactly into oldString and newString.',
    { rung, startLine, endLine },
  );
}

/** search_budget: `rung` exhausted the work budget (similarity.ts Budget) before it could decide; never a silent not_found. */
export function budgetHit(rung: RungName): Fail<'search_budget'> {
  return fail(
    'search_budget',
    `The search stopped at its work limit in the ${rung} rung before it could decide; nothing was written.`,
    'Give a shorter oldString copied exactly from the file (a few distinctive lines).',
    { rung },
  );
}

/** conflict (applyEdits): edits `first` and `second` (0-based in the batch, shown 1-based) overlap in the original text. */
export function overlap(first: number, second: number): Fail<'conflict'> {
  return fail(
    'conflict',
    `Edits ${first + 1} and ${second + 1} of the batch touch overlapping text of the original file.`,
    'Merge those two edits into one, or make their oldStrings cover separate lines.',
    { edits: [first, second] },
  );
}
