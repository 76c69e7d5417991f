/**
 * The one cap on what a tool output may put in front of the model (DESIGN §11: 2,000 lines / 50 KB, opencode's
 * numbers). Pure: text in, the cut out; no fs, no clock (output-cap-file.ts saves the whole output and renders the
 * note the model reads).
 *
 * An output over `maxLines` lines or `maxBytes` UTF-8 bytes is cut into a head and a tail, at line boundaries: the
 * head takes whole lines from the start within 40% of the preview budget, the tail takes whole lines from the end
 * within what is left. A line bigger than a whole share (one huge line) is cut inside, at a character boundary
 * (never between the halves of a surrogate pair): the head shows its start, the tail its end, so no preview is
 * empty; an ordinary line that does not fit is left out whole. What lies between head
 * and tail is left out, and the counts of it are exact: `omittedBytes` is its UTF-8 size, `omittedLines` the
 * number of lines not shown in full (a line counts once whether cut inside or left out whole).
 *
 * Lines: a line ends after "\n" (a CR before it stays with its line, so CRLF text is cut between lines too); a last
 * line without "\n" counts; an empty text has 0 lines.
 */

/** Outputs over either count are cut. */
export const MAX_OUTPUT_LINES = 2_000;
export const MAX_OUTPUT_BYTES = 50 * 1024;

export interface CapLimits {
  /** Cut when the output has more lines than this. */
  maxLines: number;
  /** Cut when the output has more UTF-8 bytes than this. */
  maxBytes: number;
  /** Lines head + tail may hold together (≤ maxLines). */
  previewLines: number;
  /** UTF-8 bytes head + tail may hold together (≤ maxBytes). */
  previewBytes: number;
}

/** The shared limits; the preview keeps room for the note (3 lines, 1 KB) so the text sent stays within both caps. */
export const DEFAULT_CAP_LIMITS: CapLimits = {
  maxLines: MAX_OUTPUT_LINES,
  maxBytes: MAX_OUTPUT_BYTES,
  previewLines: MAX_OUTPUT_LINES - 3,
  previewBytes: MAX_OUTPUT_BYTES - 1024,
};

export interface OutputCut {
  head: string;
  tail: string;
  totalBytes: number;
  totalLines: number;
  omittedBytes: number;
  omittedLines: number;
  /** Lines 1…headLines are in the head in full; the head ends inside line headLines + 1 when `headPartial`. */
  headLines: number;
  headPartial: boolean;
  /** The last tailLines lines are in the tail in full; it starts inside the line before them when `tailPartial`. */
  tailLines: number;
  tailPartial: boolean;
}

const HEAD_SHARE = 0.4;

/** Start offsets (UTF-16 indices) of each line of `text`, and the end. */
function lineStarts(text: string): number[] {
  const starts: number[] = [];
  if (text.length === 0) return [0];
  for (let i = 0; i < text.length;) {
    starts.push(i);
    const nl = text.indexOf('\n', i);
    i = nl === -1 ? text.length : nl + 1;
  }
  starts.push(text.length);
  return starts;
}

/** UTF-8 size of `text` (the count the model's provider is billed on, and what the caps mean). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Number of lines of `text` (see module docstring). */
export function countLines(text: string): number {
  return lineStarts(text).length - 1;
}

/** Longest prefix of `s` within `budget` UTF-8 bytes, not ending between the halves of a surrogate pair. */
function prefixWithin(s: string, budget: number): string {
  let lo = 0;
  let hi = Math.min(s.length, budget);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8Bytes(s.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const c = s.charCodeAt(lo - 1);
  return c >= 0xd800 && c <= 0xdbff ? s.slice(0, lo - 1) : s.slice(0, lo);
}

/** Longest suffix of `s` within `budget` UTF-8 bytes, not starting between the halves of a surrogate pair. */
function suffixWithin(s: string, budget: number): string {
  let lo = 0;
  let hi = Math.min(s.length, budget);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8Bytes(s.slice(s.length - mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const c = s.charCodeAt(s.length - lo);
  return c >= 0xdc00 && c <= 0xdfff ? s.slice(s.length - lo + 1) : s.slice(s.length - lo);
}

/**
 * Whole lines from the start within the budgets; then, when the next line is bigger than the whole byte budget
 * (a huge line that could never fit), the start of it in the room left.
 */
function takeHead(text: string, starts: number[], lines: number, bytes: number) {
  let n = 0;
  let used = 0;
  let next = 0;
  while (n < lines && n < starts.length - 1) {
    next = utf8Bytes(text.slice(starts[n], starts[n + 1]));
    if (used + next > bytes) break;
    used += next;
    n++;
  }
  const whole = text.slice(0, starts[n]);
  if (n >= lines || n >= starts.length - 1 || next <= bytes) return { text: whole, full: n, partial: false };
  const part = prefixWithin(text.slice(starts[n], starts[n + 1]), bytes - used);
  return { text: whole + part, full: n, partial: part.length > 0 };
}

/**
 * Whole lines from the end (not before line index `floor`) within the budgets; then, when the line before them is
 * bigger than the whole byte budget, the end of it in the room left — also of the line the head ends inside,
 * after the head's end (`end`, a UTF-16 index).
 */
function takeTail(text: string, starts: number[], floor: number, lines: number, bytes: number, end: number) {
  const last = starts.length - 1;
  let n = 0;
  let used = 0;
  while (n < lines && last - n - 1 >= floor) {
    const size = utf8Bytes(text.slice(starts[last - n - 1], starts[last - n]));
    if (used + size > bytes) break;
    used += size;
    n++;
  }
  const whole = text.slice(starts[last - n]);
  const i = last - n - 1;
  const open = i >= floor || (i === floor - 1 && end > (starts[i] as number) && end < (starts[i + 1] as number));
  if (n >= lines || !open) return { text: whole, full: n, partial: false };
  if (utf8Bytes(text.slice(starts[i], starts[i + 1])) <= bytes) return { text: whole, full: n, partial: false };
  const line = text.slice(Math.max(starts[i] as number, end), starts[i + 1]);
  const part = suffixWithin(line, bytes - used);
  return { text: part + whole, full: n, partial: part.length > 0 };
}

/**
 * The cut of `text` under `limits` (module docstring), or undefined when it is within both caps and goes to the
 * model whole. Invariant (property-tested): head + left-out middle + tail === text, head and tail within the
 * preview budgets, counts exact.
 */
export function cutOutput(text: string, limits: CapLimits = DEFAULT_CAP_LIMITS): OutputCut | undefined {
  const totalBytes = utf8Bytes(text);
  const starts = lineStarts(text);
  const totalLines = starts.length - 1;
  if (totalLines <= limits.maxLines && totalBytes <= limits.maxBytes) return undefined;
  const headBudget = Math.floor(limits.previewBytes * HEAD_SHARE);
  const head = takeHead(text, starts, Math.floor(limits.previewLines * HEAD_SHARE), headBudget);
  const headBytes = utf8Bytes(head.text);
  const floor = head.full + (head.partial ? 1 : 0);
  const tail = takeTail(
    text,
    starts,
    floor,
    limits.previewLines - floor,
    limits.previewBytes - headBytes,
    head.text.length,
  );
  const tailBytes = utf8Bytes(tail.text);
  const cutLines = totalLines - head.full - tail.full;
  return {
    head: head.text,
    tail: tail.text,
    totalBytes,
    totalLines,
    omittedBytes: totalBytes - headBytes - tailBytes,
    omittedLines: cutLines,
    headLines: head.full,
    headPartial: head.partial,
    tailLines: tail.full,
    tailPartial: tail.partial,
  };
}
