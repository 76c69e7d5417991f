/**
 * Text files in their own encoding (DESIGN §2–3, fixtures/bugs/README.md B18–B20). Detection order on the raw bytes:
 *   1. a BOM: EF BB BF → UTF-8+BOM; FF FE → UTF-16 LE; FE FF → UTF-16 BE (the BOM is removed from `text` and
 *      written back by `encodeText`);
 *   2. a NUL byte (without a UTF-16 BOM) → `binary`;
 *   3. valid UTF-8 → UTF-8;
 *   4. otherwise the detector's (chardet) guess, then Latin-1 as the last resort (every byte maps to one code
 *      point, so it always round-trips).
 * A decoding is accepted only if encoding the decoded text gives back the very same bytes, so a later edit of
 * one line can never rewrite bytes elsewhere (no U+FFFD, no '?'). `encodeText` refuses characters the file's
 * encoding cannot hold (`unencodable`) instead of substituting them.
 *
 * Confidence (legacy files only; BOM, UTF-8 and UTF-16 are certain): a guess is sure when the file has at least
 * EVIDENCE_BYTES non-ASCII bytes, the detector's confidence in it is at least SURE_CONFIDENCE and it leads the
 * next encoding that also reproduces the bytes by SURE_MARGIN points. Otherwise (a short Shift-JIS file reads as
 * windows-1252, a short GBK file as ISO-8859-1; close candidates; the Latin-1 fallback) `encoding.uncertain`
 * lists every encoding that reproduces the bytes — the detector's and the common multi-byte ones — so a write can
 * refuse text the bytes cannot vouch for (encoding-proof.ts). The rule lives in encoding-confidence.ts.
 */
import type { Stats } from 'node:fs';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { fail, ok, type Result } from '../../shared/errors';
import type { FileStamp } from './stamp';
import { readChecked } from './read-checked';
import { stampOf } from './stamp';
import { uncertainty, type EncodingCandidate } from './encoding-confidence';

export type { EncodingCandidate } from './encoding-confidence';

/**
 * How a file's bytes map to text. `encoding` is an iconv-lite name ('utf8', 'utf16le', 'utf16be', 'latin1'…).
 * `uncertain` is set when the detector could not be sure (see the module doc): `candidates` are the encodings
 * that reproduce the bytes, the chosen one first.
 */
export interface TextEncodingInfo {
  encoding: string;
  bom: boolean;
  uncertain?: { candidates: EncodingCandidate[] };
}

/** A decoded text file: `text` has no BOM and its line endings untouched. */
export interface TextFile {
  text: string;
  encoding: TextEncodingInfo;
  bytes: Buffer;
  stamp: FileStamp;
  /** Permission bits (st_mode & 0o7777). */
  mode: number;
}

/** Default size limit for text files the tools load (bytes). */
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Read and decode a text file. `absPath` must be a REAL path (symlinks resolved, as resolveInRoot answers): it is
 * opened without following a link there, and what was opened must be that very path (read-checked.ts), so a
 * folder on the way swapped for a symlink after the boundary check is refused instead of read. Errors:
 * `file_not_found`, `is_directory`, `binary` (NUL bytes or no encoding that round-trips), `too_large` (over
 * `maxBytes`, default 50 MB, counted in bytes actually read: a pseudo-file reporting size 0 is no exception),
 * `outside_root` (the path changed while it was opened: data `{ path, opened }`), `io_error` (unreadable, or not a
 * regular file — a FIFO, socket or device: data `{ notRegular: kind }`).
 *
 * The file is opened once, non-blocking (opening a FIFO for reading would otherwise wait for a writer forever),
 * and its size, kind and bytes all come from that one open file, so the stamp describes the bytes returned.
 */
export async function readTextFile(absPath: string, options: { maxBytes?: number } = {}): Promise<Result<TextFile>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const read = await readChecked(absPath, maxBytes);
  if (!read.ok) {
    if (read.why === 'moved') return moved(absPath, read.opened ?? 'another file');
    if (read.why === 'missing')
      return fail('file_not_found', `${absPath} does not exist.`, 'Check the path with list or glob.');
    if (read.why === 'directory')
      return fail('is_directory', `${absPath} is a directory.`, 'Use list to see its entries, or name a file.');
    if (read.why === 'not_regular') return notRegular(absPath, read.st as Stats);
    if (read.why === 'too_large')
      return tooLarge(absPath, read.st && read.st.size > maxBytes ? read.st.size : undefined, maxBytes);
    return fail(
      'io_error',
      `Cannot read ${absPath} (${read.errno ?? 'unknown error'}).`,
      'Check the file permissions and try again.',
      {
        errno: read.errno,
      },
    );
  }
  const { bytes, st } = read;
  const decoded = decodeBytes(bytes);
  if (!decoded.ok) return decoded;
  return ok({
    ...decoded.value,
    bytes,
    stamp: stampOf(bytes, { size: bytes.length, mtimeMs: st.mtimeMs }),
    mode: st.mode & 0o7777,
  });
}

function tooLarge(absPath: string, size: number | undefined, maxBytes: number): Result<never> {
  return fail(
    'too_large',
    size === undefined
      ? `${absPath} holds more than ${maxBytes} bytes (its reported size is smaller: a growing or pseudo-file), over the limit.`
      : `${absPath} is ${size} bytes, over the ${maxBytes}-byte limit.`,
    'Use bash tools (head, sed) on this file, or edit a smaller file.',
    size === undefined ? { maxBytes } : { size, maxBytes },
  );
}

/** The checked path led elsewhere when it was opened (a swapped folder or link): nothing is read. */
function moved(absPath: string, opened: string): Result<never> {
  return fail(
    'outside_root',
    `${absPath} no longer leads to the file that was checked (it opened ${opened}): a folder or link on its path was replaced; nothing was read.`,
    'Check what changed on the path, then repeat the call with a path inside the project.',
    { path: absPath, opened },
  );
}

function notRegular(absPath: string, st: Stats): Result<never> {
  const kind = st.isFIFO()
    ? 'fifo'
    : st.isSocket()
      ? 'socket'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'device'
        : 'other';
  return fail(
    'io_error',
    `${absPath} is not a regular file (${kind}); only regular files can be read as text.`,
    'Name a regular file; inspect special files with bash if you must.',
    { notRegular: kind },
  );
}

/**
 * Decode raw bytes following the module's detection order. Errors: `binary`. Pure (no fs).
 */
export function decodeBytes(bytes: Buffer): Result<{ text: string; encoding: TextEncodingInfo }> {
  const bomInfo = bomOf(bytes);
  if (bomInfo) {
    const text = iconv.decode(bytes.subarray(bomLength(bomInfo)), bomInfo.encoding, { stripBOM: false });
    if (roundTrips(text, bomInfo, bytes)) return ok({ text, encoding: bomInfo });
  }
  if (bytes.includes(0)) return binaryFail('it contains NUL bytes');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    const text = utf8.decode(bytes);
    if (!bomInfo) return ok({ text, encoding: { encoding: 'utf8', bom: false } });
  } catch {
    // not UTF-8: try the detector's guess, then Latin-1
  }
  const guesses = legacyCandidates(bytes);
  for (const [k, guess] of guesses.entries()) {
    const info: TextEncodingInfo = { encoding: guess.encoding, bom: false };
    const text = iconv.decode(bytes, guess.encoding, { stripBOM: false });
    if (!roundTrips(text, info, bytes)) continue;
    const uncertain = uncertainty(bytes, guess, guesses.slice(k + 1), decodesExactly);
    return ok({ text, encoding: uncertain ? { ...info, uncertain } : info });
  }
  return binaryFail('no text encoding reproduces its bytes');
}

function decodesExactly(bytes: Buffer, encoding: string): boolean {
  return roundTrips(iconv.decode(bytes, encoding, { stripBOM: false }), { encoding, bom: false }, bytes);
}

function binaryFail(why: string): Result<never> {
  return fail(
    'binary',
    `The file looks binary (${why}).`,
    'Binary files cannot be read or edited as text; use bash tools if you must inspect it.',
  );
}

function bomOf(bytes: Buffer): TextEncodingInfo | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: 'utf8', bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf16le', bom: true };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf16be', bom: true };
  return undefined;
}

function bomLength(info: TextEncodingInfo): number {
  if (!info.bom) return 0;
  return info.encoding === 'utf8' ? 3 : 2;
}

/** How many bytes the detector looks at (its cost is linear and slow: ~4 s per 16 MB measured here). */
const DETECT_SAMPLE_BYTES = 256 * 1024;

/**
 * The bytes the detector judges: the file from a little before its first non-ASCII byte, at most
 * DETECT_SAMPLE_BYTES. ASCII says nothing about a legacy encoding, and every candidate is verified on the whole
 * file by the round-trip check anyway, so a sample only decides the order of the guesses.
 */
function detectorSample(bytes: Buffer): Buffer {
  if (bytes.length <= DETECT_SAMPLE_BYTES) return bytes;
  const firstHigh = bytes.findIndex((b) => b >= 0x80);
  const start = Math.max(0, Math.min(firstHigh < 0 ? 0 : firstHigh - 1024, bytes.length - DETECT_SAMPLE_BYTES));
  return bytes.subarray(start, start + DETECT_SAMPLE_BYTES);
}

/**
 * The detector's candidates (iconv-lite names, confidence order), at most MAX_GUESSES, then Latin-1 with
 * confidence 0 (it reproduces any bytes: the last resort, never a sure guess).
 */
function legacyCandidates(bytes: Buffer): EncodingCandidate[] {
  const out: EncodingCandidate[] = [];
  for (const match of chardet.analyse(detectorSample(bytes))) {
    const name = match.name.toLowerCase();
    if (name.startsWith('utf') || name.startsWith('iso-2022') || !iconv.encodingExists(name)) continue;
    if (match.confidence < 10) continue;
    if (!out.some((c) => c.encoding === name)) out.push({ encoding: name, confidence: match.confidence });
    if (out.length >= MAX_GUESSES) break;
  }
  if (!out.some((c) => c.encoding === 'iso-8859-1')) out.push({ encoding: 'latin1', confidence: 0 });
  return out;
}

/** How many of the detector's guesses are tried (each costs a decode and an encode of the file). */
const MAX_GUESSES = 4;

function roundTrips(text: string, info: TextEncodingInfo, bytes: Buffer): boolean {
  const back = encodeText(text, info);
  return back.ok && back.value.equals(bytes);
}

/** True when `text` holds an unpaired UTF-16 surrogate (cannot be written as UTF-8). */
function loneSurrogateAt(text: string): number {
  const m = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  return m ? m.index : -1;
}

/**
 * Encode `text` (no BOM in it) in the file's encoding, adding the BOM when `info.bom`. Error `unencodable`
 * (data: `{ encoding, index, line, char }`) when a character has no representation — never a substitute.
 */
export function encodeText(text: string, info: TextEncodingInfo): Result<Buffer> {
  const enc = info.encoding.toLowerCase();
  let body: Buffer;
  if (enc === 'utf8' || enc === 'utf-8') {
    const bad = loneSurrogateAt(text);
    if (bad >= 0) return unencodable(text, bad, 'UTF-8');
    body = Buffer.from(text, 'utf8');
    return ok(info.bom ? Buffer.concat([UTF8_BOM, body]) : body);
  }
  if (enc === 'utf16le' || enc === 'utf16be') {
    body = Buffer.from(text, 'utf16le');
    if (enc === 'utf16be') body.swap16();
    if (!info.bom) return ok(body);
    return ok(Buffer.concat([Buffer.from(enc === 'utf16le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]));
  }
  body = iconv.encode(text, enc, { addBOM: false });
  const back = iconv.decode(body, enc, { stripBOM: false });
  if (back !== text) {
    let i = 0;
    while (i < text.length && text[i] === back[i]) i++;
    return unencodable(text, i, info.encoding);
  }
  return ok(body);
}

function unencodable(text: string, index: number, encoding: string): Result<never> {
  const line = text.slice(0, index).split('\n').length;
  const char = String.fromCodePoint(text.codePointAt(index) ?? 0xfffd);
  const hex = 'U+' + (text.codePointAt(index) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return fail(
    'unencodable',
    `The character ${JSON.stringify(char)} (${hex}) on line ${line} cannot be written in this file's encoding (${encoding}).`,
    `Use only characters that ${encoding} can hold (e.g. an escape sequence), or convert the file to UTF-8 first.`,
    { encoding, index, line, char: hex },
  );
}

/** The dominant line ending of `text`: CRLF when at least half of its line breaks are CRLF, else LF (POSIX default). */
export function lineEnding(text: string): '\n' | '\r\n' {
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

/** `text` with every line break (CRLF or LF) turned into `eol`. Lone CRs are kept as they are. */
export function toLineEnding(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}

/** `text` without a leading U+FEFF (a BOM the model copied into content; the file's BOM lives in TextEncodingInfo). */
export function stripBomChar(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
