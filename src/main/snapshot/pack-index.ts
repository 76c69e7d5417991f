/**
 * Reader for a pack written by `PackWriter` (or by git, as long as it holds no deltas): the `.idx` v2 file is
 * loaded into memory (fan-out table, sorted ids, offsets) and objects are read with positional reads from the
 * `.pack` file. An object's compressed bytes run from its offset to the next offset in pack order (or to the
 * trailer), so one read plus one inflate gets it. Delta entries (types 6, 7) are refused with an exception:
 * this store never writes them, so meeting one is a bug, not an expected failure.
 */
import { closeSync, openSync, readSync, fstatSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { ObjectType } from './object-id';

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

/** One pack and its index, opened for reading. */
export class PackFile {
  private readonly idx: Buffer;
  private readonly count: number;
  private readonly namesAt = 8 + 256 * 4;
  private fd: number;
  private readonly packSize: number;
  private ends: Map<number, number> | undefined;

  /** Opens `<base>.idx` and `<base>.pack`. Throws if the idx is not version 2. */
  constructor(readonly base: string) {
    this.idx = readFileSync(`${base}.idx`);
    if (this.idx.readUInt32BE(0) !== 0xff744f63 || this.idx.readUInt32BE(4) !== 2) throw new Error(`${base}.idx: not a v2 pack index`);
    this.count = this.idx.readUInt32BE(8 + 255 * 4);
    this.fd = openSync(`${base}.pack`, 'r');
    this.packSize = fstatSync(this.fd).size;
  }

  /** Number of objects in the pack. */
  get size(): number {
    return this.count;
  }

  /** Position of `oid` in the sorted name table, or -1. */
  private find(oid: Buffer): number {
    const first = oid[0] ?? 0;
    let lo = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let hi = this.idx.readUInt32BE(8 + first * 4) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.namesAt + mid * 20;
      // c < 0: the name at `mid` sorts before `oid`.
      const c = this.idx.compare(oid, 0, 20, at, at + 20);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** True when the pack holds `oid` (hex). */
  has(oid: string): boolean {
    return this.find(Buffer.from(oid, 'hex')) >= 0;
  }

  /** Every object id in the pack (hex). */
  ids(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.idx.toString('hex', this.namesAt + i * 20, this.namesAt + i * 20 + 20));
    return out;
  }

  private offsetAt(i: number): number {
    const offsetsAt = this.namesAt + this.count * 24;
    const v = this.idx.readUInt32BE(offsetsAt + i * 4);
    if ((v & 0x80000000) === 0) return v;
    const largeAt = offsetsAt + this.count * 4 + (v & 0x7fffffff) * 8;
    return Number(this.idx.readBigUInt64BE(largeAt));
  }

  private endOf(offset: number): number {
    if (!this.ends) {
      const offsets: number[] = [];
      for (let i = 0; i < this.count; i++) offsets.push(this.offsetAt(i));
      offsets.sort((a, b) => a - b);
      this.ends = new Map();
      for (let i = 0; i < offsets.length; i++) this.ends.set(offsets[i] as number, offsets[i + 1] ?? this.packSize - 20);
    }
    return this.ends.get(offset) ?? this.packSize - 20;
  }

  /** Reads `oid` (hex), or undefined when the pack does not hold it. */
  read(oid: string): { type: ObjectType; content: Buffer } | undefined {
    const i = this.find(Buffer.from(oid, 'hex'));
    if (i < 0) return undefined;
    const offset = this.offsetAt(i);
    const raw = Buffer.allocUnsafe(this.endOf(offset) - offset);
    readSync(this.fd, raw, 0, raw.length, offset);
    let p = 0;
    let byte = raw[p++] ?? 0;
    const typeNum = (byte >> 4) & 7;
    while (byte & 0x80) byte = raw[p++] ?? 0;
    const type = TYPES[typeNum];
    if (!type) throw new Error(`${this.base}.pack: object ${oid} is a delta (type ${typeNum}); this store never writes deltas`);
    return { type, content: inflateSync(raw.subarray(p)) };
  }

  /** Closes the pack file descriptor. */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
