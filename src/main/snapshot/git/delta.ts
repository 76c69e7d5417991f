/**
 * Git's delta format (the body of an OFS_DELTA / REF_DELTA pack entry), written and applied.
 *
 * A delta is: the base's size and the result's size as little-endian base-128 varints, then instructions —
 * `copy` (high bit set; bits 0–3 say which of 4 offset bytes follow, bits 4–6 which of 3 size bytes, a size of 0
 * meaning 0x10000) takes a run of the base, `insert` (1–127) takes that many literal bytes that follow it
 * (Documentation/gitformat-pack.txt, "Deltified representation").
 *
 * The encoder is ours, tuned for a first track: the base is indexed once at every 16-byte block (one slot per
 * hash bucket, first block wins), the target is scanned with a rolling hash, and every block hit is checked byte
 * for byte and grown backwards into the pending literal run and forwards as far as both agree. The scan gives up
 * as soon as the delta would exceed the caller's size limit, so a poor base costs little.
 */

/** Block size in bytes: the shortest run the encoder looks for (git's diff-delta uses 16 as well). */
export const BLOCK = 16;
const MUL = 0x01000193;
let mulPow = 1;
for (let i = 0; i < BLOCK - 1; i++) mulPow = Math.imul(mulPow, MUL);
/** MUL^(BLOCK-1) mod 2^32: what the byte leaving the rolling window contributed. */
const OUT_POW = mulPow;

/** A base prepared for encoding deltas against it: its bytes and a block hash table (bucket → offset or -1). */
export interface DeltaIndex {
  readonly base: Uint8Array;
  readonly table: Int32Array;
  readonly bits: number;
}

function blockHash(a: Uint8Array, at: number): number {
  let h = 0;
  for (let k = 0; k < BLOCK; k++) h = (Math.imul(h, MUL) + (a[at + k] as number)) | 0;
  return h;
}

function roll(h: number, out: number, inn: number): number {
  return (Math.imul(h - Math.imul(out, OUT_POW), MUL) + inn) | 0;
}

/**
 * Indexes `base` at every BLOCK-byte boundary. Memory: a table of ≥ 2 slots per block (4 bytes each), i.e. about
 * half the base's size.
 */
export function indexBase(base: Uint8Array): DeltaIndex {
  const blocks = Math.floor(base.length / BLOCK);
  let bits = 4;
  while (1 << bits < blocks * 2) bits++;
  const mask = (1 << bits) - 1;
  const table = new Int32Array(mask + 1).fill(-1);
  for (let i = 0; i + BLOCK <= base.length; i += BLOCK) {
    const h = blockHash(base, i);
    const slot = (h ^ (h >>> bits)) & mask;
    if (table[slot] === -1) table[slot] = i;
  }
  return { base, table, bits };
}

/** Offset in the base of a block equal to `target[at, at+BLOCK)` whose hash is `h`, or -1. */
function lookup(ix: DeltaIndex, h: number, target: Uint8Array, at: number): number {
  const c = ix.table[(h ^ (h >>> ix.bits)) & ((1 << ix.bits) - 1)] as number;
  if (c < 0) return -1;
  const base = ix.base;
  for (let k = 0; k < BLOCK; k++) if (base[c + k] !== target[at + k]) return -1;
  return c;
}

/**
 * Cheap similarity probe before a full scan: looks for base blocks at `samples` evenly spaced places of `target`
 * (each place rolled over 2×BLOCK positions, so an unaligned copy is still found). True when at least half the
 * places hit (a quarter let through four times as many hopeless scans for 0.01% more saved on a node_modules
 * copy). Targets under 1 KiB always pass (the scan is as cheap as the probe).
 */
export function looksSimilar(ix: DeltaIndex, target: Uint8Array, samples = 12): boolean {
  if (target.length < 1024) return true;
  const step = Math.floor((target.length - 3 * BLOCK) / samples);
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    const from = s * step;
    let h = blockHash(target, from);
    for (let j = from; j < from + 2 * BLOCK; j++) {
      if (lookup(ix, h, target, j) >= 0) {
        hits++;
        break;
      }
      h = roll(h, target[j] as number, target[j + BLOCK] as number);
    }
  }
  return hits * 2 >= samples;
}

/** Growable output for instructions; `over` turns true once more than `limit` bytes were written. */
class Out {
  buf: Uint8Array;
  n = 0;
  constructor(readonly limit: number) {
    this.buf = new Uint8Array(Math.min(limit + 64, 1 << 16));
  }
  room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.buf[this.n++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.n++] = v;
  }
  insert(src: Uint8Array, from: number, to: number): void {
    while (from < to) {
      const k = Math.min(127, to - from);
      this.room(k + 1);
      this.buf[this.n++] = k;
      this.buf.set(src.subarray(from, from + k), this.n);
      this.n += k;
      from += k;
    }
  }
  copy(offset: number, size: number): void {
    while (size > 0) {
      const k = Math.min(size, 0xffffff);
      this.room(8);
      const at = this.n++;
      let op = 0x80;
      for (let b = 0; b < 4; b++) {
        const v = Math.floor(offset / 2 ** (8 * b)) & 0xff;
        if (v !== 0) {
          op |= 1 << b;
          this.buf[this.n++] = v;
        }
      }
      for (let b = 0; b < 3; b++) {
        const v = (k >>> (8 * b)) & 0xff;
        if (v !== 0) {
          op |= 0x10 << b;
          this.buf[this.n++] = v;
        }
      }
      this.buf[at] = op;
      offset += k;
      size -= k;
    }
  }
}

/**
 * Encodes `target` as a delta against the indexed base. Returns the delta bytes, or undefined when it would be
 * longer than `limit` bytes (or the target is shorter than one block). Bases over 4 GiB are not supported (copy
 * offsets are 32-bit in the format); callers keep bases far smaller.
 */
export function encodeDelta(ix: DeltaIndex, target: Uint8Array, limit: number): Uint8Array | undefined {
  const base = ix.base;
  const tn = target.length;
  const bn = base.length;
  if (tn < BLOCK || bn > 0xffffffff) return undefined;
  const out = new Out(limit);
  out.varint(bn);
  out.varint(tn);
  let lit = 0;
  let j = 0;
  let h = blockHash(target, 0);
  while (j + BLOCK <= tn) {
    const c = lookup(ix, h, target, j);
    if (c >= 0) {
      let s = c;
      let t = j;
      while (t > lit && s > 0 && base[s - 1] === target[t - 1]) {
        s--;
        t--;
      }
      let e = c + BLOCK;
      let f = j + BLOCK;
      while (f < tn && e < bn && base[e] === target[f]) {
        e++;
        f++;
      }
      out.insert(target, lit, t);
      out.copy(s, e - s);
      if (out.n > limit) return undefined;
      lit = f;
      j = f;
      if (j + BLOCK <= tn) h = blockHash(target, j);
      continue;
    }
    if (j + BLOCK < tn) h = roll(h, target[j] as number, target[j + BLOCK] as number);
    j++;
    // Literal bytes cost at least 128/127 of themselves: stop once the delta cannot fit any more.
    if (out.n + j - lit > limit) return undefined;
  }
  out.insert(target, lit, tn);
  return out.n > limit ? undefined : out.buf.slice(0, out.n);
}

/** Error for a delta that does not fit its base (a damaged pack). */
export class DeltaError extends Error {
  override readonly name = 'DeltaError';
}

function readVarint(d: Uint8Array, at: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    if (at >= d.length) throw new DeltaError('delta header truncated');
    const b = d[at++] as number;
    v += (b & 0x7f) * mul;
    mul *= 128;
    if ((b & 0x80) === 0) return [v, at];
  }
}

/**
 * Applies a git delta to `base`. Throws DeltaError when the delta's base size differs from `base.length`, an
 * instruction reads past the base or the delta, uses the reserved opcode 0, or the result's size differs from the
 * header.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Buffer {
  const [baseSize, afterBase] = readVarint(delta, 0);
  if (baseSize !== base.length) throw new DeltaError(`delta expects a ${baseSize}-byte base, got ${base.length}`);
  const [size, afterSize] = readVarint(delta, afterBase);
  let p = afterSize;
  const out = Buffer.allocUnsafe(size);
  let n = 0;
  while (p < delta.length) {
    const op = delta[p++] as number;
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += (delta[p++] as number) * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (0x10 << b)) len |= (delta[p++] as number) << (8 * b);
      if (len === 0) len = 0x10000;
      if (p > delta.length || off + len > base.length || n + len > size)
        throw new DeltaError('delta copy out of range');
      out.set(base.subarray(off, off + len), n);
      n += len;
    } else if (op > 0) {
      if (p + op > delta.length || n + op > size) throw new DeltaError('delta insert out of range');
      out.set(delta.subarray(p, p + op), n);
      n += op;
      p += op;
    } else {
      throw new DeltaError('delta opcode 0 is reserved');
    }
  }
  if (n !== size) throw new DeltaError(`delta produced ${n} bytes, header says ${size}`);
  return out;
}
