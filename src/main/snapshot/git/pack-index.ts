/**
 * Reader for a pack written by `PackWriter` or by git: the `.idx` v2 file is loaded into memory (fan-out table,
 * sorted ids, offsets) and objects are read with positional reads from the `.pack` file. An object's compressed
 * bytes run from its offset to the next offset in pack order (or to the trailer), so one read plus one inflate
 * gets it. Deltas are resolved: OFS_DELTA (6) by the base's offset in this pack, REF_DELTA (7) by the base's id
 * in this pack; objects read are kept in a small cache shared by the store's packs (ReadCache), since
 * neighbours in a chain are usually read together (a restore, a diff).
 */
import { closeSync, openSync, readSync, fstatSync, readFileSync } from 'node:fs';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { applyDelta } from './delta';
import type { ObjectType } from './object-id';

/** Memory for objects recently read (likely delta bases of the next ones), per ReadCache (one per ObjectDb). */
const BASE_CACHE_BYTES = 8 << 20;
/**
 * What one cached object costs besides its content (its key, record, Buffer and backing store), counted against
 * the cap: counting content alone let 8 MiB of small objects be ~50,000 entries and ~25 MB on a restore.
 */
const ENTRY_OVERHEAD = 256;

/**
 * Objects recently read from packs, oldest dropped first once over `capBytes` in all. One is shared by every
 * pack of an ObjectDb, so many packs do not multiply the memory. Objects over a quarter of the cap are not kept.
 */
export class ReadCache {
  private readonly objects = new Map<string, { type: ObjectType; content: Buffer }>();
  private bytes = 0;

  constructor(private readonly capBytes = BASE_CACHE_BYTES) {}

  /** The object cached under `key`, if any. */
  get(key: string): { type: ObjectType; content: Buffer } | undefined {
    return this.objects.get(key);
  }

  /** Keeps `o` under `key`, dropping the oldest entries beyond the cap. */
  set(key: string, o: { type: ObjectType; content: Buffer }): void {
    if (o.content.length > this.capBytes / 4 || this.objects.has(key)) return;
    this.objects.set(key, o);
    this.bytes += o.content.length + ENTRY_OVERHEAD;
    for (const [k, v] of this.objects) {
      if (this.bytes <= this.capBytes) break;
      this.objects.delete(k);
      this.bytes -= v.content.length + ENTRY_OVERHEAD;
    }
  }

  /** Drops everything. */
  clear(): void {
    this.objects.clear();
    this.bytes = 0;
  }
}

/** Largest output buffer sized from an entry's header (a damaged header must not ask for gigabytes at once). */
const MAX_SIZED_CHUNK = 64 << 20;

/**
 * Inflates a pack entry's zlib stream whose header says it holds `size` bytes, into a buffer of that size.
 * `inflateSync` writes into 16 KiB chunks and hands back a view of the first one, so a 200-byte tree read kept a
 * 16 KiB allocation alive for as long as it was held: the read cache (8 MiB of content) then held ~700 MB on a
 * 100,000-file tree (42,800 trees). One output chunk of `size + 1` bytes (zlib's minimum is 64; small ones come
 * from Node's shared buffer pool) holds exactly the object; a header that lies only costs extra chunks.
 */
export function inflateSized(input: Uint8Array, size: number): Buffer {
  return inflateSync(input, { chunkSize: Math.max(zlibConstants.Z_MIN_CHUNK, Math.min(size + 1, MAX_SIZED_CHUNK)) });
}

let nextPackId = 0;
/** A chain longer than this is treated as a damaged pack (PackWriter writes ≤ 10, git ≤ 50 by default; 4095 max). */
const MAX_CHAIN = 4096;

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

/** One pack and its index, opened for reading. */
export class PackFile {
  private readonly idx: Buffer;
  private readonly count: number;
  private readonly namesAt = 8 + 256 * 4;
  private fd: number;
  private readonly packSize: number;
  private ends: Float64Array | undefined;
  /** Unique per opened pack: cache keys of a closed pack can never be met again. */
  private readonly id = nextPackId++;

  /**
   * Opens `<base>.idx` and `<base>.pack`; objects read are kept in `cache` (shared by an ObjectDb's packs).
   * `written`: the idx bytes and pack size of a pack this process has just written (PackWriter.written), so they
   * are not read back from disk. Throws if the idx is not version 2.
   */
  constructor(
    readonly base: string,
    private readonly cache = new ReadCache(),
    written?: { idx: Buffer; packSize: number },
  ) {
    this.idx = written?.idx ?? readFileSync(`${base}.idx`);
    if (this.idx.readUInt32BE(0) !== 0xff744f63 || this.idx.readUInt32BE(4) !== 2)
      throw new Error(`${base}.idx: not a v2 pack index`);
    this.count = this.idx.readUInt32BE(8 + 255 * 4);
    this.fd = openSync(`${base}.pack`, 'r');
    this.packSize = written?.packSize ?? fstatSync(this.fd).size;
  }

  /** Number of objects in the pack. */
  get size(): number {
    return this.count;
  }

  /** Size of the `.pack` file in bytes. */
  get bytes(): number {
    return this.packSize;
  }

  /** Position of `oid` in the sorted name table, or -1. */
  private find(oid: Buffer): number {
    const first = oid[0] ?? 0;
    let lo = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let hi = this.idx.readUInt32BE(8 + first * 4) - 1;
    const idx = this.idx;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.namesAt + mid * 20;
      // c < 0: the name at `mid` sorts before `oid`. Compared byte by byte here: Buffer#compare with ranges
      // checks its five arguments on every call, which was most of a step's object lookups (two big packs,
      // ~17 probes each, ~50 new objects a step).
      let c = 0;
      for (let k = 0; k < 20 && c === 0; k++) c = (idx[at + k] as number) - (oid[k] as number);
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

  /** True when the pack holds the object with raw id `oid` (20 bytes; one conversion serves every pack). */
  hasId(oid: Buffer): boolean {
    return this.find(oid) >= 0;
  }

  /** Every object id in the pack (hex). */
  ids(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++)
      out.push(this.idx.toString('hex', this.namesAt + i * 20, this.namesAt + i * 20 + 20));
    return out;
  }

  private offsetAt(i: number): number {
    const offsetsAt = this.namesAt + this.count * 24;
    const v = this.idx.readUInt32BE(offsetsAt + i * 4);
    if ((v & 0x80000000) === 0) return v;
    const largeAt = offsetsAt + this.count * 4 + (v & 0x7fffffff) * 8;
    return Number(this.idx.readBigUInt64BE(largeAt));
  }

  /**
   * Where the entry at `offset` ends: the next entry's offset in pack order, else the trailer. The offsets are kept
   * sorted in one typed array (a Map of 142,000 offsets was 7 MB of heap on a 100,000-file tree).
   */
  private endOf(offset: number): number {
    if (!this.ends) {
      const offsets = new Float64Array(this.count);
      for (let i = 0; i < this.count; i++) offsets[i] = this.offsetAt(i);
      this.ends = offsets.sort();
    }
    const ends = this.ends;
    let lo = 0;
    let hi = ends.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ends[mid] as number;
      if (v === offset) return mid + 1 < ends.length ? (ends[mid + 1] as number) : this.packSize - 20;
      if (v < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return this.packSize - 20;
  }

  /**
   * Reads `oid` (hex), or undefined when the pack does not hold it. Throws (Error / DeltaError) on a damaged
   * pack: an unknown entry type, a REF_DELTA base missing from the pack, a delta that does not fit its base, a
   * chain longer than MAX_CHAIN.
   */
  read(oid: string): { type: ObjectType; content: Buffer } | undefined {
    const i = this.find(Buffer.from(oid, 'hex'));
    if (i < 0) return undefined;
    return this.readAt(this.offsetAt(i), 0);
  }

  /**
   * The stored form of `oid` when it is a whole object (not a delta): its type, its size and its zlib stream as
   * written — for copying it into another pack without inflating and deflating it again. Undefined when absent or
   * stored as a delta.
   */
  stored(oid: string): { type: ObjectType; size: number; body: Buffer } | undefined {
    const i = this.find(Buffer.from(oid, 'hex'));
    if (i < 0) return undefined;
    const offset = this.offsetAt(i);
    const raw = Buffer.allocUnsafe(this.endOf(offset) - offset);
    readSync(this.fd, raw, 0, raw.length, offset);
    let p = 0;
    let byte = raw[p++] ?? 0;
    const type = TYPES[(byte >> 4) & 7];
    let size = byte & 15;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = raw[p++] ?? 0;
      size += (byte & 0x7f) * 2 ** shift;
    }
    return type ? { type, size, body: raw.subarray(p) } : undefined;
  }

  /**
   * The type of `oid` (a delta's is its base's), from entry headers alone — nothing inflated; undefined when the
   * pack does not hold it. Throws on a damaged pack (as `read`).
   */
  typeOf(oid: string): ObjectType | undefined {
    const i = this.find(Buffer.from(oid, 'hex'));
    if (i < 0) return undefined;
    let offset = this.offsetAt(i);
    const head = Buffer.alloc(32); // type and size (≤ 10 bytes), then a delta's base distance (≤ 10) or id (20)
    for (let depth = 0; depth <= MAX_CHAIN; depth++) {
      readSync(this.fd, head, 0, Math.min(head.length, this.endOf(offset) - offset), offset);
      const e = this.entryAt(head, offset);
      if (e.base === undefined) return e.type;
      offset = e.base;
    }
    throw new Error(`${this.base}.pack: delta chain longer than ${MAX_CHAIN} for ${oid}`);
  }

  /**
   * The header of the entry at pack offset `offset`, from `raw` (its bytes from there on; a delta's base id must be
   * in it): its type (undefined for a delta, whose type is its base's), the size of its data, where its zlib data
   * starts in `raw`, and a delta's base offset. Throws on an unknown type, a base distance past the pack's start, a
   * base id not in this pack.
   */
  private entryAt(
    raw: Buffer,
    offset: number,
  ): { type: ObjectType; size: number; body: number; base?: undefined } | { size: number; body: number; base: number } {
    let p = 0;
    let byte = raw[p++] ?? 0;
    const typeNum = (byte >> 4) & 7;
    let size = byte & 15;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = raw[p++] ?? 0;
      size += (byte & 0x7f) * 2 ** shift;
    }
    if (typeNum === 6) {
      // Big-endian base-128 distance back to the base, each continuation adding one (git's offset encoding).
      byte = raw[p++] ?? 0;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = raw[p++] ?? 0;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      if (distance <= 0 || distance > offset - 12)
        throw new Error(`${this.base}.pack: bad delta base distance at offset ${offset}`);
      return { size, body: p, base: offset - distance };
    }
    if (typeNum === 7) {
      const baseId = raw.subarray(p, p + 20);
      const j = this.find(baseId);
      if (j < 0) throw new Error(`${this.base}.pack: delta base ${baseId.toString('hex')} is not in this pack`);
      return { size, body: p + 20, base: this.offsetAt(j) };
    }
    const type = TYPES[typeNum];
    if (!type) throw new Error(`${this.base}.pack: unknown entry type ${typeNum} at offset ${offset}`);
    return { type, size, body: p };
  }

  private readAt(offset: number, depth: number): { type: ObjectType; content: Buffer } {
    if (depth > MAX_CHAIN)
      throw new Error(`${this.base}.pack: delta chain longer than ${MAX_CHAIN} at offset ${offset}`);
    const cached = this.cache.get(`${this.id}:${offset}`);
    if (cached) return cached;
    const raw = Buffer.allocUnsafe(this.endOf(offset) - offset);
    readSync(this.fd, raw, 0, raw.length, offset);
    const e = this.entryAt(raw, offset);
    let got: { type: ObjectType; content: Buffer };
    if (e.base !== undefined) {
      const base = this.readAt(e.base, depth + 1);
      got = { type: base.type, content: applyDelta(base.content, inflateSized(raw.subarray(e.body), e.size)) };
    } else got = { type: e.type, content: inflateSized(raw.subarray(e.body), e.size) };
    // Kept whether read as a base or not: the next object read (tree order is pack order) is often a delta
    // against this one — 20% less CPU reading a 20,500-file tree.
    this.cache.set(`${this.id}:${offset}`, got);
    return got;
  }

  /** Closes the pack file descriptor. */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
