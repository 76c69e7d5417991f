/**
 * zlib-stored.ts: its streams inflate to the bytes given (node:zlib as the reader, which checks the header and the
 * Adler-32), for empty data, one byte, exact block sizes and many blocks; its Adler-32 equals zlib's own, taken from
 * the trailer of a real deflate stream.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adler32, zlibStoredParts } from './zlib-stored';

/** The parts joined: the stream as written. */
const zlibStored = (data: Uint8Array): Buffer => Buffer.concat(zlibStoredParts(data));

describe('zlib stored blocks', () => {
  it('inflates back to the bytes for edge sizes', () => {
    for (const n of [0, 1, 65534, 65535, 65536, 131070, 131071, 200_000]) {
      const data = Buffer.alloc(n);
      for (let i = 0; i < n; i++) data[i] = (i * 7919) & 0xff;
      expect(inflateSync(zlibStored(data)).equals(data)).toBe(true);
    }
  });

  it('checksums as zlib does at the largest sums (all 0xff) around every reduction edge', () => {
    for (const n of [1, 3, 4, 5, 5551, 5552, 5553, 5555, 11_104, 11_107, 100_003]) {
      const data = Buffer.alloc(n, 0xff);
      const real = deflateSync(data, { level: 0 });
      expect([n, adler32(data)]).toEqual([n, real.readUInt32BE(real.length - 4)]);
    }
  });

  it('inflates back and checksums as zlib does for random bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 140_000 }), (bytes) => {
        const data = Buffer.from(bytes);
        expect(inflateSync(zlibStored(data)).equals(data)).toBe(true);
        // The data parts are views of the data (no copy).
        if (data.length > 0) expect(zlibStoredParts(data)[1]?.buffer).toBe(data.buffer);
        const real = deflateSync(data);
        expect(adler32(data)).toBe(real.readUInt32BE(real.length - 4));
      }),
      { numRuns: 60 },
    );
  });
});
