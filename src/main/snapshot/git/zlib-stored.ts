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

/** Adler-32 of `data` (RFC 1950 §8). Pure. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length;) {
    const end = Math.min(i + NMAX, data.length);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** `data` as a zlib stream of stored blocks (see the module docstring). Pure. */
export function zlibStored(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78; // deflate, 32 KB window
  out[1] = 0x01; // no dictionary, "fastest" — (0x78 << 8 | 0x01) is a multiple of 31, as the header check wants
  let p = 2;
  for (let k = 0; k < blocks; k++) {
    const from = k * BLOCK;
    const len = Math.min(BLOCK, data.length - from);
    out[p++] = k === blocks - 1 ? 1 : 0; // BFINAL on the last block, BTYPE 00 (stored)
    out.writeUInt16LE(len, p);
    out.writeUInt16LE(~len & 0xffff, p + 2);
    p += 4;
    out.set(data.subarray(from, from + len), p);
    p += len;
  }
  out.writeUInt32BE(adler32(data), p);
  return out;
}
