/**
 * Streams many new objects into one pack file (format: "PACK", version 2, object count, then per object a
 * type+size varint header and its zlib stream, then a sha1 trailer over everything before) and writes the v2
 * `.idx` beside it (fan-out, sorted ids, crc32 of each packed entry, offsets, pack sha1, idx sha1).
 *
 * Deltas: a blob added with its path may be stored as an OFS_DELTA against an earlier blob of the same pack (see
 * delta-bases.ts for which ones are tried), kept when the delta is at most half the blob's size; chains are at most
 * MAX_DEPTH long. Bodies are compressed by the deflate helper (deflate-helper.ts) on a second core while the walk
 * goes on; entries are written in the order they were added, so a delta's base is always before it.
 *
 * Why: a first track of tens of thousands of files as loose objects costs one file create + rename each; one pack
 * is a single sequential write. The object count is not known until the end, so the header is patched in place
 * and the trailer is computed by reading the finished file back once (it is in the page cache).
 * Crash safety: both files are written under temporary names and renamed `.pack` first, `.idx` last; readers only
 * open packs that have an `.idx`, so a crash leaves at most an orphan temporary file.
 */
import {
  closeSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  writevSync,
  unlinkSync,
} from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ObjectType } from './object-id';
import { encodeDelta, looksSimilar } from './delta';
import { DeltaBases, keysOf, MIN_DELTA_BYTES, type DeltaBase, type Placed } from './delta-bases';
import { sharedDeflater } from './deflate-helper';
import { zlibStoredParts } from './zlib-stored';

const TYPE_NUM: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const FLUSH_AT = 1 << 20;
const OFS_DELTA = 6;
/**
 * Longest delta chain written: reading an object costs one read + inflate + apply per link, and versions of a
 * file met one after another would otherwise chain without end (git allows 50; 10 costs 0.2% of the pack's size
 * on a node_modules copy and keeps a restore of a few files as fast as git's loose objects).
 */
export const MAX_DEPTH = 10;
/** A delta is kept only when at most this fraction of the blob's size (it then deflates smaller too). */
const DELTA_RATIO = 0.5;
/**
 * Bytes added but not yet written above which `add` waits for the oldest body instead of queueing more. Entries
 * are written in order, so while the helper holds the head entry every later one stays in memory (its bytes and
 * its body): without a bound, a helper that died silently mid-track (its error event cannot fire during a
 * synchronous walk) kept a whole first track in memory until `finish`. Far above what a working helper leaves
 * queued (about BACKLOG of deflate work).
 */
export const PENDING_CAP = 16 << 20;

/**
 * The entries written so far, as columns: ids in one buffer (20 bytes each, in pack order), offsets and crc32s in
 * arrays. An id per small Buffer came from Node's shared 8 KiB allocation pool, whose slabs also hold the
 * short-lived file contents and headers of the walk: each id kept its whole slab alive — 78 MB of slabs held by
 * 9,600 ids midway through a first track of 100,000 files.
 */
export class EntryTable {
  private ids = Buffer.allocUnsafe(20 * 1024);
  readonly offsets: number[] = [];
  readonly crcs: number[] = [];

  get length(): number {
    return this.offsets.length;
  }

  /** Appends an entry: `oid` as 40 hex digits. */
  push(oid: string, offset: number, crc: number): void {
    const at = this.offsets.length * 20;
    if (at + 20 > this.ids.length) {
      const next = Buffer.allocUnsafe(this.ids.length * 2);
      this.ids.copy(next, 0, 0, at);
      this.ids = next;
    }
    this.ids.write(oid, at, 20, 'hex');
    this.offsets.push(offset);
    this.crcs.push(crc);
  }

  /** Copies entry `i`'s id into `out` at `at`; answers the bytes copied (20). */
  copyId(i: number, out: Buffer, at: number): number {
    return this.ids.copy(out, at, i * 20, i * 20 + 20);
  }

  /** First id byte of entry `i`. */
  firstByte(i: number): number {
    return this.ids[i * 20] as number;
  }

  /** Entry positions in id order. */
  sorted(): Uint32Array {
    const n = this.length;
    const order = new Uint32Array(n);
    const head = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      order[i] = i;
      head[i] = this.ids.readUInt32BE(i * 20);
    }
    const ids = this.ids;
    return order.sort((a, b) => {
      const x = head[a] as number;
      const y = head[b] as number;
      return x !== y ? (x < y ? -1 : 1) : ids.compare(ids, b * 20, b * 20 + 20, a * 20, a * 20 + 20);
    });
  }
}

/** An added object waiting for its compressed body (entries are written in the order they were added). */
interface Queued {
  oid: string;
  /** Pack type number (1–4) or OFS_DELTA. */
  kind: number;
  /** Size of what was compressed (the object, or the delta). */
  size: number;
  /** For a delta: where its base went (always written before it). */
  base?: Placed;
  /** The deflate helper's ticket for the body, or -1 when `body` was made inline. */
  ticket: number;
  /** The zlib stream, in parts written one after another (zlibStoredParts), when made inline or copied. */
  body?: Buffer[];
  placed: Placed;
}

/** Packs objects as they come; `finish()` makes the pack visible, `abort()` throws it away. */
export class PackWriter {
  private readonly tmp: string;
  private fd: number;
  private offset = 12;
  private readonly entries = new EntryTable();
  private readonly held = new Set<string>();
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  private readonly bases = new DeltaBases();
  private queue: Queued[] = [];
  private head = 0;
  /** Blobs stored as deltas so far. */
  deltas = 0;
  /** After `finish`: the idx bytes and the pack's size in bytes, as written (PackFile opens it without reading back). */
  written: { idx: Buffer; packSize: number } | undefined;
  /** Bytes (objects or deltas) added but not yet written: held in memory until their entry is written. */
  private pending = 0;

  /**
   * Opens a temporary pack in `packDir` (objects/pack). `level` is the zlib level. Measured on a 20,500-file
   * node_modules copy with deltas and the helper thread: level 6 makes the pack 3% smaller than 4 (34.1 vs
   * 35.3 MB store) for ~0.15 s more on a ~2 s first track; level 9 gains 0.5% more for twice the deflate time.
   * `inline`: a step's few new objects, stored uncompressed (zlib level 0, in this thread: no round trip to the
   * helper) — compressing is most of a small track's CPU time, and the small pack is compressed when it is merged
   * (`ObjectDb.mergePacks`, when the store is idle).
   */
  constructor(
    private readonly packDir: string,
    private readonly level = 6,
    private readonly inline = false,
  ) {
    this.tmp = join(packDir, `tmp_pack_${process.pid}_${randomBytes(4).toString('hex')}`);
    // An inline pack stays in memory until it grows past FLUSH_AT (a step's pack never opens a temporary file).
    this.fd = inline ? -1 : this.open();
  }

  private open(): number {
    const fd = openSync(this.tmp, 'w+');
    writeSync(fd, Buffer.from([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 0]), 0, 12, 0);
    return fd;
  }

  /** Objects added so far. */
  get count(): number {
    return this.held.size;
  }

  /** Bytes (objects or deltas) added but not yet written to the pack; at most PENDING_CAP after each `add`. */
  get pendingBytes(): number {
    return this.pending;
  }

  /** True when `oid` was already added to this pack. */
  has(oid: string): boolean {
    return this.held.has(oid);
  }

  /**
   * Adds one object (skipped when already added). `oid` must be hashObject(type, content). With `path` (the
   * blob's slash-separated path in the tree) a blob may be stored as a delta against an earlier one and is kept
   * in memory as a base for later ones (bounded), so `content` must not be changed afterwards.
   */
  add(type: ObjectType, content: Uint8Array, oid: string, path?: string): void {
    if (this.held.has(oid)) return;
    this.held.add(oid);
    const keys = path !== undefined && type === 'blob' && content.length >= MIN_DELTA_BYTES ? keysOf(path) : undefined;
    const best = keys ? this.bestDelta(keys, content) : undefined;
    const bytes = best ? best.delta : content;
    const placed: Placed = { offset: -1 };
    const body = this.inline ? zlibStoredParts(bytes) : undefined;
    const ticket = body ? -1 : sharedDeflater.submit(bytes, this.level);
    this.queue.push({
      oid,
      kind: best ? OFS_DELTA : TYPE_NUM[type],
      size: bytes.length,
      base: best?.base.placed,
      ticket,
      ...(body ? { body } : {}),
      placed,
    });
    if (best) this.deltas++;
    this.pending += bytes.length;
    this.writeQueued(false);
    if (keys) this.bases.remember(keys, { placed, content, depth: best ? best.base.depth + 1 : 0 });
  }

  /**
   * Adds one whole object already compressed: `body` is the zlib stream of its `size` bytes, as another pack
   * stores it (PackFile.stored). Skipped when already added.
   */
  addStored(type: ObjectType, size: number, body: Buffer, oid: string): void {
    if (this.held.has(oid)) return;
    this.held.add(oid);
    this.queue.push({
      oid,
      kind: TYPE_NUM[type],
      size,
      ticket: -1,
      body: [body],
      placed: { offset: -1 },
    });
    this.writeQueued(false);
  }

  /**
   * Writes queued entries in order: those whose body is ready, or (`all`) every one, waiting for bodies; waits
   * too while more than PENDING_CAP bytes are queued.
   */
  private writeQueued(all: boolean): void {
    while (this.head < this.queue.length) {
      const q = this.queue[this.head] as Queued;
      if (!all && this.pending <= PENDING_CAP && !q.body && !sharedDeflater.ready(q.ticket)) break;
      const body = q.body ?? [sharedDeflater.take(q.ticket)];
      const offset = this.offset;
      let header = entryHeader(q.kind, q.size);
      if (q.base) {
        if (q.base.offset < 0) throw new Error('pack writer: delta base not written before its delta');
        header = Buffer.concat([header, ofsDistance(offset - q.base.offset)]);
      }
      let crc = crc32(header);
      for (const part of body) crc = crc32(part, crc);
      this.entries.push(q.oid, offset, crc);
      q.placed.offset = offset;
      this.push(header);
      for (const part of body) this.push(part);
      this.pending -= q.size;
      this.head++;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
  }

  /** The smallest delta of `content` against the bases filed under `keys`, if one is worth storing. */
  private bestDelta(keys: readonly string[], content: Uint8Array): { delta: Uint8Array; base: DeltaBase } | undefined {
    let best: { delta: Uint8Array; base: DeltaBase } | undefined;
    for (const base of this.bases.candidates(keys, content.length)) {
      if (base.depth >= MAX_DEPTH) continue;
      const index = this.bases.indexOf(base);
      if (!looksSimilar(index, content)) continue;
      const delta = encodeDelta(
        index,
        content,
        Math.floor(best ? best.delta.length - 1 : content.length * DELTA_RATIO),
      );
      if (delta) best = { delta, base };
    }
    return best;
  }

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.chunkBytes += b.length;
    this.offset += b.length;
    if (this.chunkBytes >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.chunkBytes === 0) return;
    if (this.fd < 0) this.fd = this.open();
    const all = Buffer.concat(this.chunks, this.chunkBytes);
    writeSync(this.fd, all, 0, all.length, this.offset - all.length);
    this.chunks = [];
    this.chunkBytes = 0;
  }

  /** Writes header count and trailer, the `.idx`, and renames both into place. Returns the pack base path. */
  finish(): string {
    this.writeQueued(true);
    this.bases.clear();
    if (this.fd < 0) return this.finishInMemory();
    this.flush();
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.entries.length);
    writeSync(this.fd, count, 0, 4, 8);
    const sum = createHash('sha1');
    const buf = Buffer.allocUnsafe(FLUSH_AT);
    for (let pos = 0; pos < this.offset;) {
      const n = readSync(this.fd, buf, 0, Math.min(buf.length, this.offset - pos), pos);
      sum.update(buf.subarray(0, n));
      pos += n;
    }
    const packSum = sum.digest();
    writeSync(this.fd, packSum, 0, 20, this.offset);
    closeSync(this.fd);
    this.fd = -1;
    const base = join(this.packDir, `pack-${packSum.toString('hex')}`);
    const idxTmp = `${this.tmp}.idx`;
    const idxFd = openSync(idxTmp, 'w');
    const idx = buildIdx(this.entries, packSum);
    writeSync(idxFd, idx, 0, idx.length, 0);
    closeSync(idxFd);
    renameSync(this.tmp, `${base}.pack`);
    renameSync(idxTmp, `${base}.idx`);
    this.written = { idx, packSize: this.offset + 20 };
    return base;
  }

  /**
   * `finish` of a pack that never left memory: the `.pack` and then the `.idx` are each written to a temporary name
   * and renamed into place, so neither is ever seen half-written — also when a step writes a pack byte-identical to
   * one already there (the same objects in the same order give the same name; the rename puts the same bytes in its
   * place), and after an earlier write of it failed midway (a full disk) and left nothing under that name.
   */
  private finishInMemory(): string {
    const head = Buffer.from([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2, 0, 0, 0, 0]);
    head.writeUInt32BE(this.entries.length, 8);
    const parts = [head, ...this.chunks];
    const size = head.length + this.chunkBytes;
    this.chunks = [];
    this.chunkBytes = 0;
    const sum = createHash('sha1');
    for (const c of parts) sum.update(c);
    const packSum = sum.digest();
    parts.push(packSum);
    const base = join(this.packDir, `pack-${packSum.toString('hex')}`);
    const idxTmp = `${this.tmp}.idx`;
    const idx = buildIdx(this.entries, packSum);
    try {
      const fd = openSync(this.tmp, 'w');
      try {
        // One gathered write, no joined copy of the pack (a step's pack is its changed files' bytes).
        for (let done = 0, total = size + 20; done < total;) {
          const n = writevSync(fd, done === 0 ? parts : remaining(parts, done));
          if (n <= 0) throw new Error(`short write to ${this.tmp}`);
          done += n;
        }
      } finally {
        closeSync(fd);
      }
      renameSync(this.tmp, `${base}.pack`);
      writeFileSync(idxTmp, idx);
      renameSync(idxTmp, `${base}.idx`);
    } catch (e) {
      for (const f of [this.tmp, idxTmp]) rmSync(f, { force: true });
      throw e;
    }
    this.written = { idx, packSize: size + 20 };
    return base;
  }

  /** Discards the temporary pack. */
  abort(): void {
    sharedDeflater.forget(
      this.queue
        .slice(this.head)
        .map((q) => q.ticket)
        .filter((t) => t >= 0),
    );
    this.queue = [];
    this.head = 0;
    this.pending = 0;
    this.bases.clear();
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    try {
      unlinkSync(this.tmp);
    } catch {
      // already gone
    }
  }
}

/** What is left of `parts` after its first `done` bytes (a gathered write may write less than asked). */
function remaining(parts: Buffer[], done: number): Buffer[] {
  const out: Buffer[] = [];
  for (const p of parts) {
    if (done >= p.length) done -= p.length;
    else {
      out.push(done > 0 ? p.subarray(done) : p);
      done = 0;
    }
  }
  return out;
}

/** Pack entry header: 3-bit type and the size as a little-endian base-128 varint (4 bits in the first byte). */
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let b = (type << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    bytes.push(b | 0x80);
    b = size & 0x7f;
    size = Math.floor(size / 128);
  }
  bytes.push(b);
  return Buffer.from(bytes);
}

/**
 * OFS_DELTA base distance: big-endian base-128 where each continuation adds one (git's offset encoding, so that
 * every distance has exactly one spelling).
 */
function ofsDistance(distance: number): Buffer {
  const bytes = [distance & 0x7f];
  let n = Math.floor(distance / 128);
  while (n > 0) {
    n -= 1;
    bytes.unshift(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  return Buffer.from(bytes);
}

/** Builds a v2 pack index for `entries` of a pack whose checksum is `packSum`. */
export function buildIdx(entries: EntryTable, packSum: Buffer): Buffer {
  const sorted = entries.sorted();
  const n = sorted.length;
  const offsets = entries.offsets;
  let large = 0;
  for (const o of offsets) if (o >= 0x80000000) large++;
  const out = Buffer.alloc(8 + 1024 + n * 28 + large * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fan = new Array<number>(256).fill(0);
  for (const i of sorted) fan[entries.firstByte(i)]! += 1;
  let acc = 0;
  for (let i = 0; i < 256; i++) {
    acc += fan[i] ?? 0;
    out.writeUInt32BE(acc, 8 + i * 4);
  }
  let p = 8 + 1024;
  for (const i of sorted) p += entries.copyId(i, out, p);
  for (const i of sorted) p = out.writeUInt32BE((entries.crcs[i] as number) >>> 0, p);
  let li = 0;
  const big: number[] = [];
  for (const i of sorted) {
    const o = offsets[i] as number;
    if (o >= 0x80000000) big.push(o);
    p = out.writeUInt32BE(o >= 0x80000000 ? (0x80000000 | li++) >>> 0 : o, p);
  }
  for (const o of big) p = out.writeBigUInt64BE(BigInt(o), p);
  p += packSum.copy(out, p);
  createHash('sha1').update(out.subarray(0, p)).digest().copy(out, p);
  return out;
}
