/**
 * The safety gates the decision loop applies to every candidate, whatever rung found it (DESIGN §2).
 *
 * - span gate: a candidate from a tolerant rung may not cover much more than oldString: its non-blank lines and
 *   its non-whitespace characters are capped at 1.25 × oldString's plus a small slack (whitespace is not counted,
 *   so indentation drift never trips it). fixtures/bugs/README.md B07: a stitched oldString must never swallow the lines between.
 * - fidelity gate: a similarity-scored candidate needs every compared line ≥ LINE_FLOOR (policy.ts).
 * - token boundary (conformance policy 5): a span that starts or ends inside a word or number is no fit, unless
 *   the replacement keeps the cut token's fragment unchanged at that edge (replacing the first 2,000 characters
 *   of a long line with an edit in their middle is fine; 'port = 90' → 'port = 8080' inside 'port = 9000' is not).
 *   A span that splits one character (surrogate pair, combining mark, zero-width joiner) is never a fit.
 * - whole lines: an oldString made of whole lines (it ends with a line break) lands only on whole lines: the span
 *   starts at a line start (or after the line's indentation) and ends at a line end (or before trailing spaces,
 *   or just after a line break). An oldString that starts with a line break starts with an empty line: it does
 *   not land on the end of a line that has text (a newString without that break would glue onto the line). A trimming rung once matched such an oldString as the
 *   PREFIX of a longer line and replaced only that prefix, so the line lost its trailing comma.
 */
import type { Candidate } from './types';
import { LINE_FLOOR, SPAN_CHAR_SLACK, SPAN_FACTOR, SPAN_LINE_SLACK } from './policy';
import { isWordChar } from './text';

/** Non-blank lines and non-whitespace characters of `s`, counted in one pass without copying. */
export function measure(s: string): { lines: number; chars: number } {
  let lines = 0;
  let chars = 0;
  let solidLine = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      if (solidLine) lines++;
      solidLine = false;
    } else if (!(c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || (c > 127 && /\s/.test(s[i] ?? '')))) {
      chars++;
      solidLine = true;
    }
  }
  return { lines: lines + (solidLine ? 1 : 0), chars };
}

/**
 * True when the span text is not much larger than what the rung matched (exact rungs always pass). `want` is
 * measure(candidate.matched) when the caller has it already (every place of a rung usually shares `matched`);
 * `upper`, an upper bound of measure(spanText) (judge.ts sums trimmed line lengths for whole-line spans).
 */
export function passesSpanGate(
  candidate: Candidate,
  spanText: string,
  want = measure(candidate.matched),
  upper?: { lines: number; chars: number },
): boolean {
  if (candidate.rung === 'simple' || candidate.rung === 'multi-occurrence') return true;
  const lines = Math.ceil(want.lines * SPAN_FACTOR) + SPAN_LINE_SLACK;
  const chars = Math.ceil(want.chars * SPAN_FACTOR) + SPAN_CHAR_SLACK;
  // an upper bound of the span's size that already fits spares counting it character by character
  if (upper && upper.lines <= lines && upper.chars <= chars) return true;
  const have = measure(spanText);
  return have.lines <= lines && have.chars <= chars;
}

const isBlank = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/**
 * True when [start, end) of `content` covers whole lines (see the module doc): nothing but spaces and tabs
 * stands between the line start and `start`, or between `end` and the line end. Offsets are UTF-16 indices of
 * the LF-normalised text.
 */
export function coversWholeLines(content: string, start: number, end: number): boolean {
  let s = start;
  while (s > 0 && isBlank(content[s - 1])) s--;
  if (s > 0 && content[s - 1] !== '\n') return false;
  if (end > start && content[end - 1] === '\n') return true;
  let e = end;
  while (e < content.length && isBlank(content[e])) e++;
  return e === content.length || content[e] === '\n';
}

/** True when no compared line of a similarity-scored candidate fell below the floor. */
export function passesFidelityGate(candidate: Candidate): boolean {
  return candidate.minLineSimilarity === undefined || candidate.minLineSimilarity >= LINE_FLOOR;
}

/** Unicode combining marks (accents, variation selectors) and the zero-width joiner: they bind to their neighbours. */
const BINDS_TO_PREVIOUS = /^[\p{M}\u200d]/u;

/**
 * True when the offset `at` of `content` falls inside one user-visible character: between the halves of a
 * surrogate pair (an astral character such as an emoji), before a combining mark or an emoji skin-tone modifier
 * (U+1F3FB–U+1F3FF), or around a zero-width joiner. Splicing there would write a lone surrogate (unencodable) or
 * glue a mark onto another letter, so such a boundary is never a fit.
 */
export function splitsCharacter(content: string, at: number): boolean {
  if (at <= 0 || at >= content.length) return false;
  const before = content.charCodeAt(at - 1);
  const after = content.charCodeAt(at);
  if (after < 0x300 && before !== 0x200d) return false; // no mark, joiner, surrogate or modifier starts below U+0300
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return true;
  if (before === 0x200d || BINDS_TO_PREVIOUS.test(content.slice(at, at + 1))) return true;
  const point = content.codePointAt(at) ?? 0;
  return point >= 0x1f3fb && point <= 0x1f3ff;
}

/**
 * True when [start, end) starts or ends inside a word or number of `content`, or inside one character
 * (splitsCharacter). Offsets are UTF-16 indices.
 */
export function cutsToken(content: string, start: number, end: number): boolean {
  return (
    (wordAt(content, start - 1) && wordAt(content, start)) ||
    (wordAt(content, end - 1) && wordAt(content, end)) ||
    splitsCharacter(content, start) ||
    splitsCharacter(content, end)
  );
}

/** isWordChar of content[i] (false outside the text), reading the code unit first: no string for ASCII. */
function wordAt(content: string, i: number): boolean {
  if (i < 0 || i >= content.length) return false;
  const c = content.charCodeAt(i);
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return isWordChar(content[i]);
}

function leadingWord(s: string): string {
  return /^[\p{L}\p{N}_]*/u.exec(s)?.[0] ?? '';
}

function trailingWord(s: string): string {
  return /[\p{L}\p{N}_]*$/u.exec(s)?.[0] ?? '';
}

/** True when replacing [start, end) by `replacement` leaves every token the span cuts through unchanged. */
export function keepsTokens(content: string, start: number, end: number, replacement: string): boolean {
  if (splitsCharacter(content, start) || splitsCharacter(content, end)) return false;
  const span = content.slice(start, end);
  if (isWordChar(content[start - 1]) && isWordChar(content[start])) {
    const head = leadingWord(span);
    if (head.length === span.length || !replacement.startsWith(head) || isWordChar(replacement[head.length]))
      return false;
  }
  if (isWordChar(content[end - 1]) && isWordChar(content[end])) {
    const tail = trailingWord(span);
    const before = replacement[replacement.length - tail.length - 1];
    if (tail.length === span.length || !replacement.endsWith(tail) || isWordChar(before)) return false;
  }
  return true;
}

/**
 * The last two gates for a place [start, end) whose replacement is `replacement`: 'partial' when `lineShaped`
 * (oldString is whole lines) and the place covers part of a line; 'place' when it cuts a word, number or
 * character and the replacement does not keep the cut fragment (a place, but no fit); else 'fit'.
 */
export function placeFit(
  content: string,
  start: number,
  end: number,
  replacement: string,
  lineShaped: boolean,
): 'fit' | 'place' | 'partial' {
  if (lineShaped && !coversWholeLines(content, start, end)) return 'partial';
  if (cutsToken(content, start, end) && !keepsTokens(content, start, end, replacement)) return 'place';
  return 'fit';
}

/**
 * An oldString that starts with whitespace and matches from inside a line's indentation (old '  x = 1' inside the
 * line '    x = 1') was written with the wrong indentation, not meant to keep part of it: the place is widened to
 * the line start and treated as line-aligned, so newString is written in the file's indentation frame.
 */
export function alignToIndentation(content: string, candidate: Candidate): Candidate {
  const first = candidate.matched.charCodeAt(0);
  if (candidate.lineAligned || (first !== 32 && first !== 9)) return candidate;
  let start = candidate.start;
  while (start > 0 && (content[start - 1] === ' ' || content[start - 1] === '\t')) start--;
  if (start === candidate.start || (start > 0 && content[start - 1] !== '\n')) return candidate;
  return { ...candidate, start, lineAligned: true };
}
