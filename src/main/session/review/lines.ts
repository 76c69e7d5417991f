/**
 * Byte-exact line model for review (DESIGN §5 per-hunk review).
 *
 * Review works on file bytes decoded as latin1: one char per byte, so splitting on '\n', diffing, and
 * reverse-applying are exact at the byte level and writing back with latin1 reproduces the original bytes. The
 * file's encoding (UTF-8, legacy 8-bit), its BOM (bytes of the first line) and its line endings ('\r\n' stays
 * inside each line's terminator) are therefore never touched: a rejected hunk puts back the step's bytes exactly.
 * UTF-8 multi-byte sequences never contain 0x0A, so line numbers equal those of the decoded text shown to the user.
 * Files with NUL bytes (UTF-16, binaries) are not split: they are reviewed as whole files.
 */

/** Bytes as a latin1 string (one char per byte). */
export function bytesToLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** A latin1 string back to its bytes. */
export function latin1ToBytes(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/**
 * Split into lines that keep their terminator ('\n' or '\r\n'); the last line has none when the file does not end
 * with a newline. '' → []. Joining the result gives the input back exactly.
 */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** A line without its terminator ('\n' or '\r\n'). */
export function stripEol(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  if (line.endsWith('\n')) return line.slice(0, -1);
  return line;
}

/** A latin1 line shown as UTF-8 text without its terminator (display only; bytes stay latin1 internally). */
export function displayLine(line: string): string {
  return Buffer.from(stripEol(line), 'latin1').toString('utf8');
}

/** True when the bytes look binary (a NUL byte in the first 8 KiB, the rule git uses). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.byteLength, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
