/**
 * Line endings and the byte-order mark around a match (DESIGN §2 "Around the match").
 *
 * The engine matches on LF text without a BOM. `normalizeFile` records where the file had CRLF so that an offset in
 * the normalised text maps back to the file (`toOriginal`), and which ending replacement text must be written
 * with: the ending of the replaced span when it has one, else the file's dominant ending. Bytes outside the
 * replaced span are never touched, so a mixed file stays exactly as mixed as it was.
 */

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
}

/** Strip a leading BOM and turn CRLF into LF, remembering where each CRLF stood. */
export function normalizeFile(raw: string): NormalizedFile {
  const bomLength = raw.startsWith(BOM) ? 1 : 0;
  const body = bomLength ? raw.slice(1) : raw;
  if (!body.includes('\r\n')) return { text: body, bomLength, crlfAt: [], crlfDominant: false };
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
  let lf = 0;
  for (let i = out.indexOf('\n'); i !== -1; i = out.indexOf('\n', i + 1)) lf++;
  return { text: out, bomLength, crlfAt, crlfDominant: crlfAt.length * 2 >= lf };
}

/** CRLF → LF and a leading BOM dropped: the form oldString and newString are compared in. */
export function normalizeArgument(s: string): string {
  const body = s.startsWith(BOM) ? s.slice(1) : s;
  return body.includes('\r\n') ? body.replace(/\r\n/g, '\n') : body;
}

/** Number of entries of the ascending list `xs` that are < `value`. */
function countBelow(xs: readonly number[], value: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Map an offset in the normalised text to the offset in the raw file (BOM and CRs counted back in). */
export function toOriginal(file: NormalizedFile, offset: number): number {
  return file.bomLength + offset + countBelow(file.crlfAt, offset);
}

/** True when replacement text for the span [start, end) of the normalised text must be written with CRLF. */
export function spanWantsCrlf(file: NormalizedFile, start: number, end: number): boolean {
  if (file.crlfAt.length === 0) return false;
  const inside = countBelow(file.crlfAt, end) - countBelow(file.crlfAt, start);
  if (inside > 0) return true;
  return file.crlfDominant;
}

/** Write LF text with the chosen ending. */
export function withEnding(text: string, crlf: boolean): string {
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}
