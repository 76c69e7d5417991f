/**
 * Lines and line endings, for both engines (the one home of these helpers). Offsets are UTF-16 indices.
 *
 * `splitLines`: a file's text as lines that remember their own terminators, so that every byte outside a change is
 * written back exactly (apply_patch conformance policy 7–8): a CRLF file stays CRLF line by line, a mixed file stays
 * mixed, and a file without a final newline keeps none. Splitting recognises "\r\n" and "\n"; a lone "\r" is part
 * of a line's text. `lineStarts`, `countLf`, `toLf`: what the edit engine's LF-normalised view is built from.
 */

/** `texts[i]` is line i without its terminator; `eols[i]` is its terminator ('' only for an unterminated last line). */
export interface FileLines {
  texts: string[];
  eols: string[];
  /** `offsets[i]` is where line i starts in the text; `offsets[texts.length]` is the text's length. */
  offsets: number[];
  /** True when the text is empty or ends with a terminator. */
  finalNewline: boolean;
  /** Terminator for inserted lines: the first line's, or "\n" when the file has none. */
  eol: string;
}

/** Split `text` into lines with their terminators. O(length). */
export function splitLines(text: string): FileLines {
  const texts: string[] = [];
  const eols: string[] = [];
  const offsets: number[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    offsets.push(start);
    const crlf = i > start && text.charCodeAt(i - 1) === 13;
    texts.push(text.slice(start, crlf ? i - 1 : i));
    eols.push(crlf ? '\r\n' : '\n');
    start = i + 1;
  }
  const finalNewline = start === text.length;
  if (!finalNewline) {
    offsets.push(start);
    texts.push(text.slice(start));
    eols.push('');
  }
  offsets.push(text.length);
  const first = eols[0];
  return { texts, eols, offsets, finalNewline, eol: first !== undefined && first !== '' ? first : '\n' };
}

/** Offset of the first character of every line of `text`, split on LF (a final LF starts a last, empty line). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Number of LF characters in `text` (every line break, with or without a CR before it). */
export function countLf(text: string): number {
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
  return lf;
}

/** `text` with every CRLF turned into LF (a lone CR stays); the same string when it holds no CRLF. */
export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}
