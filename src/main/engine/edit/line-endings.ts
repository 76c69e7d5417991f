/**
 * Line endings and the byte-order mark around a match (DESIGN §2 "Around the match").
 *
 * The engine matches on LF text without a BOM. `normalizeFile` records where the file had CRLF so that an offset in
 * the normalised text maps back to the file (`toOriginal`), and which ending each line of replacement text must be
 * written with (`endingsFor`): a line keeps the ending of the replaced line it pairs with, so in a mixed LF/CRLF
 * file a line-for-line rewrite changes no ending; a pure file stays pure. Bytes outside the replaced span are never
 * touched, so a mixed file stays exactly as mixed as it was.
 *
 * Cost: nothing is copied or indexed until a landing needs it. An oldString without line breaks is searched in
 * the raw text (RawLineView); a file without CRLF is its own LF text; a CRLF file is converted to LF (one native
 * replace) only when a multi-line oldString, or a looser rung, must match on LF text.
 */

import { lowerBound } from '../text/binary-search';
import { countLf, toLf } from '../text/lines';

const BOM = '\uFEFF';

/**
 * A view of the file that the engine matched on: its `text`, and how an offset in it and a replacement written
 * into it map back to the raw file (render in landing.ts).
 */
export interface FileView {
  /** The text the rungs searched (LF text without BOM, or for RawLineView the raw text after the BOM). */
  readonly text: string;
  /** Offset in `text` → offset in the raw file. */
  toOriginal(offset: number): number;
  /** The LF replacement for the span [start, end) of `text`, written with the file's line endings. */
  endingsFor(start: number, end: number, replacement: string): string;
}

/**
 * The file as the engine sees it (LF, no BOM), plus what is needed to map back. Everything past the BOM check
 * and one `includes('\r\n')` is computed on first use: a file without CRLF is its own normalised text (no
 * copy), and the CRLF offsets are only collected when a landing in a CRLF file needs them.
 */
export class NormalizedFile implements FileView {
  /** Length of the removed BOM (0 or 1). */
  readonly bomLength: number;
  /** The raw text after the BOM. */
  readonly body: string;
  private crlfSeen?: boolean;
  private lf?: string;
  private crlf?: number[];
  private breaks?: number;

  constructor(raw: string) {
    this.bomLength = raw.startsWith(BOM) ? 1 : 0;
    this.body = this.bomLength ? raw.slice(1) : raw;
  }

  /** True when the file holds at least one CRLF (then `text` is a converted copy). */
  get hasCrlf(): boolean {
    return (this.crlfSeen ??= this.body.includes('\r\n'));
  }

  /** LF text without a leading BOM. */
  get text(): string {
    return (this.lf ??= this.hasCrlf ? this.body.replace(/\r\n/g, '\n') : this.body);
  }

  /** Ascending offsets, in `text`, of every LF that was a CRLF in the file. */
  get crlfAt(): number[] {
    if (!this.crlf) {
      const at: number[] = [];
      if (this.hasCrlf) {
        for (let i = this.body.indexOf('\r\n'); i !== -1; i = this.body.indexOf('\r\n', i + 2)) at.push(i - at.length);
      }
      this.crlf = at;
    }
    return this.crlf;
  }

  /** Number of line breaks (LF, with or without CR) in the file. */
  get lineBreaks(): number {
    return (this.breaks ??= countLf(this.body));
  }

  /** True when most line breaks of the file are CRLF. */
  get crlfDominant(): boolean {
    return this.crlfAt.length * 2 >= this.lineBreaks;
  }

  toOriginal(offset: number): number {
    return this.bomLength + (this.hasCrlf ? offset + lowerBound(this.crlfAt, offset) : offset);
  }

  endingsFor(start: number, end: number, replacement: string): string {
    return endingsFor(this, start, end, replacement);
  }
}

/**
 * The raw text of a file (after its BOM), searched as it is: valid only for an oldString with no line break and
 * no CR, which occurs in the raw text exactly where it occurs in the normalised one (it cannot span a line
 * break), whatever the file's line endings — so the file is not even checked for CRLF. A replacement's line breaks take the ending of the line the span sits in — what endingsFor gives a
 * span without line breaks — read straight from the raw bytes, so no normalised copy is ever made.
 */
export class RawLineView implements FileView {
  constructor(private readonly file: NormalizedFile) {}

  get text(): string {
    return this.file.body;
  }

  toOriginal(offset: number): number {
    return this.file.bomLength + offset;
  }

  endingsFor(start: number, end: number, replacement: string): string {
    if (!replacement.includes('\n')) return replacement;
    const body = this.file.body;
    const next = body.indexOf('\n', end);
    const previous = start > 0 ? body.lastIndexOf('\n', start - 1) : -1;
    const at = next !== -1 ? next : previous;
    // no line break before or after the span: the file has none, so nothing says CRLF
    const crlf = at > 0 && body.charCodeAt(at - 1) === 13;
    return crlf ? replacement.replace(/\n/g, '\r\n') : replacement;
  }
}

/** The file's normalised view (see NormalizedFile). */
export function normalizeFile(raw: string): NormalizedFile {
  return new NormalizedFile(raw);
}

/** CRLF → LF and a leading BOM dropped: the form oldString and newString are compared in. */
export function normalizeArgument(s: string): string {
  return toLf(s.startsWith(BOM) ? s.slice(1) : s);
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
 * Rule (mixed files): bytes outside the span are never touched (render copies them). Inside it, each line
 * break of the replacement takes the ending of the span's line break it is paired with (pairBreaks: same text at
 * the start or end of the span, else the same position), so a line-for-line rewrite keeps every line's own
 * ending. A new line with no partner takes the ending of the nearest paired line before it (else after it); when
 * the span holds no line break, the ending of the line it sits in. A pure LF or pure CRLF file stays pure.
 * @param file the normalised file (crlfAt says which LFs were CRLF).
 * @param start, end UTF-16 offsets of the span in `file.text`.
 * @param replacement the replacement with LF breaks (a lone CR is text and stays as it is).
 */
export function endingsFor(file: NormalizedFile, start: number, end: number, replacement: string): string {
  if (!file.hasCrlf || !replacement.includes('\n')) return replacement;
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
