/**
 * Line endings and the byte-order mark around a match (DESIGN §2 "Around the match").
 *
 * The engine matches on LF text without a BOM. `normalizeFile` records where the file had CRLF so that an offset in
 * the normalised text maps back to the file (`toOriginal`), and which ending each line of replacement text must be
 * written with (`endingsFor`): a line keeps the ending of the replaced line it pairs with, so in a mixed LF/CRLF
 * file a line-for-line rewrite changes no ending; a pure file stays pure. Bytes outside the replaced span are never
 * touched, so a mixed file stays exactly as mixed as it was.
 */

import { lowerBound } from './text';

const BOM = '\uFEFF';

/** The file as the engine sees it, plus what is needed to map back. */
export interface NormalizedFile {
  /** LF text without a leading BOM. */
  text: string;
  /** Length of the removed BOM (0 or 1). */
  bomLength: number;
  /** Ascending offsets, in `text`, of every LF that was a CRLF in the file. */
  crlfAt: number[];
  /** True when most line breaks of the file are CRLF. */
  crlfDominant: boolean;
  /** Number of line breaks (LF, with or without CR) in the file. */
  lineBreaks: number;
}

function countLf(text: string): number {
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lf++;
  return lf;
}

/** Strip a leading BOM and turn CRLF into LF, remembering where each CRLF stood. */
export function normalizeFile(raw: string): NormalizedFile {
  const bomLength = raw.startsWith(BOM) ? 1 : 0;
  const body = bomLength ? raw.slice(1) : raw;
  if (!body.includes('\r\n'))
    return { text: body, bomLength, crlfAt: [], crlfDominant: false, lineBreaks: countLf(body) };
  const crlfAt: number[] = [];
  let out = '';
  let from = 0;
  let at = body.indexOf('\r\n');
  while (at !== -1) {
    out += body.slice(from, at);
    crlfAt.push(out.length);
    out += '\n';
    from = at + 2;
    at = body.indexOf('\r\n', from);
  }
  out += body.slice(from);
  const lf = countLf(out);
  return { text: out, bomLength, crlfAt, crlfDominant: crlfAt.length * 2 >= lf, lineBreaks: lf };
}

/** CRLF → LF and a leading BOM dropped: the form oldString and newString are compared in. */
export function normalizeArgument(s: string): string {
  const body = s.startsWith(BOM) ? s.slice(1) : s;
  return body.includes('\r\n') ? body.replace(/\r\n/g, '\n') : body;
}

/**
 * oldString and newString (already normalised) both ending with a lone CR: the model cut CRLF text on LF and kept
 * the CR of the last line break. That CR is half a line ending, not text — both lose it, so a CRLF file never gets
 * a stray `\r\r\n`. Only when BOTH end so: a CR in just one of them may be meant (and the match decides).
 * @returns [old, replacement] without the dangling CR, or unchanged.
 */
export function dropDanglingCr(old: string, replacement: string): [string, string] {
  return old.endsWith('\r') && replacement.endsWith('\r')
    ? [old.slice(0, -1), replacement.slice(0, -1)]
    : [old, replacement];
}

/** Map an offset in the normalised text to the offset in the raw file (BOM and CRs counted back in). */
export function toOriginal(file: NormalizedFile, offset: number): number {
  return file.bomLength + offset + lowerBound(file.crlfAt, offset);
}

/** True when the LF at `offset` of the normalised text was a CRLF in the file. */
function wasCrlf(file: NormalizedFile, offset: number): boolean {
  const i = lowerBound(file.crlfAt, offset);
  return file.crlfAt[i] === offset;
}

/**
 * The ending of the region around a span with no line break of its own: the ending of the line the span ends in,
 * else (last line without a break) the ending of the line before it, else the file's dominant ending.
 */
function regionEnding(file: NormalizedFile, start: number, end: number): boolean {
  const next = file.text.indexOf('\n', end);
  if (next !== -1) return wasCrlf(file, next);
  const previous = start > 0 ? file.text.lastIndexOf('\n', start - 1) : -1;
  return previous !== -1 ? wasCrlf(file, previous) : file.crlfDominant;
}

/**
 * Pair each line break of the replacement with a line break of the replaced span (indices into `oldLines` breaks;
 * -1 for no partner). Break i ends line i. Lines equal at the start of both are paired, then lines equal at the end
 * (counted backwards), then the rest by position. Linear in the line counts.
 */
function pairBreaks(oldLines: readonly string[], newLines: readonly string[]): number[] {
  const k = oldLines.length - 1;
  const m = newLines.length - 1;
  const partner = new Array<number>(m).fill(-1);
  let p = 0;
  while (p < Math.min(k, m) && oldLines[p] === newLines[p]) partner[p] = p++;
  let q = 0;
  while (q < Math.min(k, m) - p && oldLines[k - q - 1] === newLines[m - q - 1]) {
    partner[m - q - 1] = k - q - 1;
    q++;
  }
  for (let j = p; j < m - q && p + (j - p) < k - q; j++) partner[j] = j;
  return partner;
}

/**
 * Write the LF replacement text for the normalised span [start, end) with the file's line endings.
 *
 * Rule (issue 2, mixed files): bytes outside the span are never touched (render copies them). Inside it, each line
 * break of the replacement takes the ending of the span's line break it is paired with (pairBreaks: same text at
 * the start or end of the span, else the same position), so a line-for-line rewrite keeps every line's own
 * ending. A new line with no partner takes the ending of the nearest paired line before it (else after it); when
 * the span holds no line break, the ending of the line it sits in. A pure LF or pure CRLF file stays pure.
 * @param file the normalised file (crlfAt says which LFs were CRLF).
 * @param start, end UTF-16 offsets of the span in `file.text`.
 * @param replacement the replacement with LF breaks (a lone CR is text and stays as it is).
 */
export function endingsFor(file: NormalizedFile, start: number, end: number, replacement: string): string {
  if (file.crlfAt.length === 0 || !replacement.includes('\n')) return replacement;
  if (file.crlfAt.length === file.lineBreaks) return replacement.replace(/\n/g, '\r\n');
  const span = file.text.slice(start, end);
  const breakCrlf: boolean[] = [];
  for (let i = span.indexOf('\n'); i !== -1; i = span.indexOf('\n', i + 1)) breakCrlf.push(wasCrlf(file, start + i));
  const newLines = replacement.split('\n');
  const partner = pairBreaks(span.split('\n'), newLines);
  // unpaired breaks: the nearest paired break before, else the first paired one after, else the region's ending
  let previous: boolean | undefined;
  const paired = partner.map((i) => (i === -1 ? previous : (previous = breakCrlf[i])));
  const firstPaired = partner.find((i) => i !== -1);
  const otherwise = firstPaired === undefined ? regionEnding(file, start, end) : breakCrlf[firstPaired] === true;
  let out = newLines[0] ?? '';
  for (let j = 0; j < paired.length; j++) out += ((paired[j] ?? otherwise) ? '\r\n' : '\n') + (newLines[j + 1] ?? '');
  return out;
}
