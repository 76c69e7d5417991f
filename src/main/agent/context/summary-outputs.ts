/**
 * Old tool outputs in a compaction's summary request (DESIGN §11). Re-sending every folded tool output in full made
 * the summary requests of a long session cost as much as a tenth of all it sent. opencode's rule carries over, with
 * its line drawn where the corpus says: tool outputs older than the newest SUMMARY_PROTECT_TOKENS tokens of tool
 * output go to the summariser as a short start and end with exact counts of what was left out; the lines among
 * those left out that name an error (ERROR_LINE, up to ERROR_LINES of them) are kept, so error text still reaches the
 * summary the template asks for. The tool calls themselves (commands, paths), the user's messages and the
 * assistant's text are never shortened here.
 *
 * The line is drawn over the whole history at the time of the compaction: the newest ~15,000 tokens that stay
 * verbatim (compaction.ts KEEP_RECENT_TOKENS) are not in the summary request, so their tool output counts against
 * the protected share first (compaction.ts passes what is left of it). Measured by `npm run bench:context` on the
 * 21 recorded corpus sessions, each folded as a compaction would fold it: opencode's 40,000 with 20 error lines sent
 * 281,752 tokens of summary requests and kept 1,895 of 2,170 error lines; 25,000 with 40 error lines sends 212,857
 * and keeps 2,046 (every first and last line of an output kept in both) — cheaper and more of the facts.
 */

/** Tokens of the newest tool output of the history (kept verbatim or in the summary request) that stay whole. */
export const SUMMARY_PROTECT_TOKENS = 25_000;
/** At most this many lines, and HEAD_CHARS characters, of an old output's start are kept (the same for its end). */
export const HEAD_LINES = 6;
export const HEAD_CHARS = 600;
/** A kept line longer than this is cut to it (the rest counted as left out). */
export const LINE_CHARS = 300;
/** At most this many error lines of the left-out middle are kept. */
export const ERROR_LINES = 40;
/** A line that names an error, a failure or a crash (any case, anywhere in the line). */
export const ERROR_LINE = /error|fail|exception|traceback|panic|fatal|assert|denied|cannot|not found/i;

/** An old output as sent in the summary request, and the exact counts of what was left out of it. */
export interface ShortOutput {
  text: string;
  /** Lines of the output not shown at all (every line counts its line break, when it has one). */
  omittedLines: number;
  /** Characters of the output not shown: whole lines left out and the cut ends of long kept lines. */
  omittedChars: number;
  /** Error lines of the left-out middle kept, and those left out beyond ERROR_LINES. */
  errorLines: number;
  errorLinesLeftOut: number;
}

interface Line {
  text: string;
  /** Characters this line takes in the output, its line break included. */
  size: number;
  /** 1-based line number. */
  n: number;
}

function linesOf(text: string): Line[] {
  const parts = text.split('\n');
  const terminated = text.endsWith('\n');
  if (terminated) parts.pop();
  return parts.map((t, i) => ({ text: t, size: t.length + (i < parts.length - 1 || terminated ? 1 : 0), n: i + 1 }));
}

/** How many lines from one end fit HEAD_LINES / HEAD_CHARS (at least one, which may be cut to LINE_CHARS). */
function fitFrom(lines: Line[]): number {
  let chars = 0;
  let k = 0;
  for (const l of lines) {
    const shown = Math.min(l.text.length, LINE_CHARS);
    if (k >= HEAD_LINES || (k > 0 && chars + shown > HEAD_CHARS)) break;
    chars += shown;
    k++;
  }
  return k;
}

/** A kept line, cut to LINE_CHARS (UTF-16 units) with the count of what was cut; answers the text and that count. */
function keep(l: Line, prefix = ''): { text: string; cut: number } {
  if (l.text.length <= LINE_CHARS) return { text: `${prefix}${l.text}`, cut: 0 };
  // never between the two halves of a surrogate pair
  const code = l.text.charCodeAt(LINE_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? LINE_CHARS - 1 : LINE_CHARS;
  const cut = l.text.length - end;
  return { text: `${prefix}${l.text.slice(0, end)}[… ${cut} more characters of this line]`, cut };
}

/**
 * `text` as its first and last lines (HEAD_LINES / HEAD_CHARS each) with a marker where the middle was, stating
 * exactly how many lines and characters were left out, followed by the middle's error lines (ERROR_LINE, up to
 * ERROR_LINES, each with its line number); a kept line over LINE_CHARS keeps its start and says how much was cut
 * (no marker when only that was cut). Undefined when nothing would be left out (the output is short).
 */
export function shortenOutput(text: string): ShortOutput | undefined {
  const lines = linesOf(text);
  const h = fitFrom(lines);
  const t = Math.min(fitFrom([...lines].reverse()), lines.length - h);
  const middle = lines.slice(h, lines.length - t);
  const errors = middle.filter((l) => ERROR_LINE.test(l.text));
  const shownErrors = errors.slice(0, ERROR_LINES);
  const shownSet = new Set(shownErrors);
  const head = lines.slice(0, h).map((l) => keep(l));
  const tail = lines.slice(lines.length - t).map((l) => keep(l));
  const errs = shownErrors.map((l) => keep(l, `line ${l.n}: `));
  const left = middle.filter((l) => !shownSet.has(l));
  const omittedLines = left.length;
  const cutChars = [...head, ...tail, ...errs].reduce((n, k) => n + k.cut, 0);
  if (omittedLines === 0 && cutChars === 0) return undefined;
  const omittedChars = left.reduce((n, l) => n + l.size, 0) + cutChars;
  const more = errors.length - shownErrors.length;
  const said =
    errors.length === 0
      ? ''
      : `; ${shownErrors.length} line(s) of it that name an error follow${more > 0 ? ` (${more} more left out)` : ''}`;
  const marker = `[… ${omittedLines} of ${lines.length} lines (${omittedChars} characters) of this output left out of the summary request${said} …]`;
  const between =
    middle.length === 0 ? [] : [{ text: marker }, ...errs, ...(t > 0 && errs.length > 0 ? [{ text: '[…]' }] : [])];
  const body = [...head, ...between, ...tail];
  return {
    text: body.map((k) => k.text).join('\n'),
    omittedLines,
    omittedChars,
    errorLines: shownErrors.length,
    errorLinesLeftOut: more,
  };
}
