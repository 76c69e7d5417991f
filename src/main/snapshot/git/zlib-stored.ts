/**
 * A zlib stream (RFC 1950) whose data are deflate "stored" blocks (RFC 1951 §3.2.4: no compression), built
 * directly: a 2-byte header, blocks of at most 65,535 bytes each with its length and the length's complement, and
 * the Adler-32 checksum of the data. Any inflater reads it — git, isomorphic-git, node:zlib — exactly like what
 * `deflateSync(bytes, { level: 0 })` returns, without setting up a compressor (its state is hundreds of KB,
 * allocated and freed per call: for a step's small objects that setup costs more than storing them).
 */

/** Largest data in one stored block. */
const BLOCK = 65535;
/** Bytes Adler-32 can sum before its running sums must be reduced modulo 65521 (zlib's NMAX). */
const NMAX = 5552;

/**
 * Adler-32 of `data` (RFC 1950 §8). Pure. Four bytes a turn: after d0..d3, `a` grew by their sum and `b` by
 * 4a + 4d0 + 3d1 + 2d2 + d3 (the four running sums at once) — the same numbers as byte by byte, so the same NMAX
 * bound keeps them exact; a third less time than one byte a turn.
 */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  for (let i = 0; i < n;) {
    const end = Math.min(i + NMAX, n);
    const end4 = end - ((end - i) & 3);
    for (; i < end4; i += 4) {
      const d0 = data[i] as number;
      const d1 = data[i + 1] as number;
      const d2 = data[i + 2] as number;
      const d3 = data[i + 3] as number;
      b += 4 * a + 4 * d0 + 3 * d1 + 2 * d2 + d3;
      a += d0 + d1 + d2 + d3;
    }
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * `data` as a zlib stream of stored blocks (see the module docstring), in parts to be written one after another:
 * the headers and the checksum are small buffers of their own, and the data is not copied — each block is a view
 * of `data`, which must therefore stay unchanged until the parts are written (a step's pack writes them at its
 * end: 16 KB fewer bytes allocated and copied per changed file). Pure.
 */
export function zlibStoredParts(data: Uint8Array): Buffer[] {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const parts: Buffer[] = [];
  for (let k = 0; k < blocks; k++) {
    const from = k * BLOCK;
    const len = Math.min(BLOCK, data.length - from);
    const head = Buffer.allocUnsafe(k === 0 ? 7 : 5);
    let p = 0;
    if (k === 0) {
      head[p++] = 0x78; // deflate, 32 KB window
      head[p++] = 0x01; // no dictionary, "fastest" — (0x78 << 8 | 0x01) is a multiple of 31, as the header check wants
    }
    head[p++] = k === blocks - 1 ? 1 : 0; // BFINAL on the last block, BTYPE 00 (stored)
    head.writeUInt16LE(len, p);
    head.writeUInt16LE(~len & 0xffff, p + 2);
    parts.push(head);
    if (len > 0) parts.push(view.subarray(from, from + len));
  }
  const sum = Buffer.allocUnsafe(4);
  sum.writeUInt32BE(adler32(data));
  parts.push(sum);
  return parts;
}
