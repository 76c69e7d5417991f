/**
 * New text in a file whose encoding the detector was not sure of (text-file.ts TextEncodingInfo.uncertain): a
 * short Shift-JIS file reads as windows-1252, a short GBK one as ISO-8859-1, and a character written in the
 * guessed encoding would be other bytes — another character — in the real one. So a write to such a file may only
 * add what the file's own bytes vouch for; anything else is refused as `encoding_uncertain`, nothing written.
 *
 * The rule, on bytes (old file → new file), line by line over the changed region (each line ends at 0x0A, a byte
 * no candidate encoding uses inside a character):
 * - an added line byte-identical to a line of the old file is proven (its bytes mean what they meant there);
 * - otherwise the new bytes must be ASCII; and when a multi-byte encoding (Shift-JIS, GBK/GB18030, Big5, EUC)
 *   also reproduces the file, the change must start and end on ASCII bytes: in all of them a byte below 0x80
 *   never begins a character, so the edit cannot split one (GB18030's four-byte form has ASCII digits inside:
 *   a digit right after a high byte is not taken as a boundary);
 * - when only single-byte encodings reproduce the file, a byte is one character in each of them, so a non-ASCII
 *   byte the old file already holds is proven too (a Latin-1 `é` may be written again).
 * A file that was sure of its encoding, or UTF-8/UTF-16, is never refused here.
 */
import { fail, ok, type Result } from '../../shared/errors';
import type { TextEncodingInfo } from './text-file';

const MULTI_BYTE =
  /^(shift[-_]?jis|sjis|windows-31j|cp932|euc-?(jp|kr|tw)|gb ?k|gb2312|gb18030|cp936|big5|big5-hkscs|cp950|cp949|ks_c_5601)/i;

const NL = 0x0a;

function lines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = buf.indexOf(NL); i !== -1; i = buf.indexOf(NL, i + 1)) {
    out.push(buf.subarray(from, i + 1));
    from = i + 1;
  }
  if (from < buf.length) out.push(buf.subarray(from));
  return out;
}

/** A byte below 0x80 at `i` ends a character in every candidate, unless it is a digit after a high byte. */
function endsCharacter(buf: Buffer, i: number): boolean {
  const b = buf[i] ?? 0;
  if (b >= 0x80) return false;
  return !(b >= 0x30 && b <= 0x39 && i > 0 && (buf[i - 1] ?? 0) >= 0x80);
}

interface Judge {
  multiByte: boolean;
  known: Set<number>;
}

/** True when the bytes `added` may stand in the file (see module doc; `known`: byte values of the old file). */
function bytesVouched(added: Buffer, j: Judge): boolean {
  for (const b of added) if (b >= 0x80 && (j.multiByte || !j.known.has(b))) return false;
  return true;
}

/** True when the line `before` may become `after` (one line of a line-for-line rewrite). */
function pairVouched(before: Buffer, after: Buffer, j: Judge): boolean {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s])
    s++;
  if (!bytesVouched(after.subarray(p, after.length - s), j)) return false;
  if (!j.multiByte) return true;
  if (p > 0 && !endsCharacter(before, p - 1)) return false;
  const lastRemoved = before.length - s - 1;
  return lastRemoved < p || endsCharacter(before, lastRemoved);
}

/**
 * The changed region as whole lines: [start, endBefore) of `before` became [start, endAfter) of `after` (the
 * common prefix and suffix, cut back to line boundaries, are untouched bytes).
 */
function changedLines(
  before: Buffer,
  after: Buffer,
): { p: number; end: number; start: number; endBefore: number; endAfter: number } {
  const min = Math.min(before.length, after.length);
  let p = 0;
  while (p < min && before[p] === after[p]) p++;
  let s = 0;
  while (s < min - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  const start = p === 0 ? 0 : before.lastIndexOf(NL, p - 1) + 1;
  const end = before.length - s;
  const nl = end > 0 && before[end - 1] === NL ? end - 1 : before.indexOf(NL, end);
  const grow = (nl === -1 ? before.length : nl + 1) - end;
  return { p, end, start, endBefore: end + grow, endAfter: after.length - s + grow };
}

/** 1-based line number (in `after`) of the first unproven added line, or 0 when every added byte is vouched for. */
function firstUnproven(before: Buffer, after: Buffer, j: Judge): number {
  const { p, end, start, endBefore, endAfter } = changedLines(before, after);
  // the change as a whole starts and ends between characters (a rewrite of several lines into another number of
  // lines is not paired line by line, so this is its only boundary check)
  const cut = j.multiByte && ((p > 0 && !endsCharacter(before, p - 1)) || (end > p && !endsCharacter(before, end - 1)));
  if (cut) return lineOf(after, p);
  const removed = lines(before.subarray(start, endBefore));
  const added = lines(after.subarray(start, endAfter));
  let known: Set<string> | undefined;
  for (const [k, line] of added.entries()) {
    const partner = removed.length === added.length ? removed[k] : undefined;
    if (partner ? pairVouched(partner, line, j) : bytesVouched(line, j)) continue;
    known ??= new Set(lines(before).map((l) => l.toString('latin1').replace(/\n$/, '')));
    if (known.has(line.toString('latin1').replace(/\n$/, ''))) continue;
    return lineOf(after, start) + k;
  }
  return 0;
}

/** 1-based line of byte `at`. */
function lineOf(buf: Buffer, at: number): number {
  let n = 1;
  for (let i = buf.indexOf(NL); i !== -1 && i < at; i = buf.indexOf(NL, i + 1)) n++;
  return n;
}

/**
 * Refuse a write whose new bytes an uncertain encoding cannot vouch for (see module doc).
 * @param before, after the file's bytes before and after the write.
 * @param info the encoding the file was read with (text-file.ts); nothing is checked unless `info.uncertain`.
 * @param rel the file's path relative to the project root, for the message.
 * @returns ok, or `encoding_uncertain` with data `{ path, encoding, candidates, line }` (line: 1-based, in the
 *   new text, the first line holding text the bytes cannot vouch for).
 */
export function proveEncoding(before: Buffer, after: Buffer, info: TextEncodingInfo, rel: string): Result<void> {
  const candidates = info.uncertain?.candidates;
  if (!candidates) return ok(undefined);
  const judge: Judge = { multiByte: candidates.some((c) => MULTI_BYTE.test(c.encoding)), known: new Set(before) };
  const line = firstUnproven(before, after, judge);
  if (line === 0) return ok(undefined);
  const others = candidates.filter((c) => c.encoding !== info.encoding).map((c) => c.encoding);
  return fail(
    'encoding_uncertain',
    `The encoding of ${rel} could not be determined for sure: it was read as ${info.encoding}, but ${others.join(', ')} also reproduce its bytes. Line ${line} of the new text adds characters whose bytes would mean something else in those encodings; nothing was written.`,
    'Keep the new text ASCII (an escape such as \\u3042 instead of the character), or copy whole lines that are already in the file; to add other characters, have the file converted to UTF-8 first.',
    { path: rel, encoding: info.encoding, candidates, line },
  );
}
