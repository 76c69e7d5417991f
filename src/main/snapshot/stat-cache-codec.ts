/**
 * Binary encoding of stat cache contents (little-endian columns): magic, version, counts; root tree and tree ids
 * (20 bytes each); files as columns (NUL-joined paths, float64 [size, mtime, ctime, ino, mode] rows, 20-byte ids,
 * racy bytes); folders likewise. Columns parse far faster than JSON, which matters for the first track after
 * reopening. The same encoding carries a full cache and the upserts of one journal record.
 */
import type { DirRecord, StatCacheData, StatEntry } from './stat-entries';

const MAGIC = 0x4c465343; // "LFSC"
const VERSION = 3;

/** Sequential reader over the cache bytes. */
export class Cursor {
  p = 0;
  constructor(readonly b: Buffer) {}
  u32(): number {
    const v = this.b.readUInt32LE(this.p);
    this.p += 4;
    return v;
  }
  bytes(n: number): Buffer {
    const v = this.b.subarray(this.p, this.p + n);
    this.p += n;
    return v;
  }
  /** `n` NUL-joined strings (n is needed: one empty string and none look alike). */
  strings(n: number): string[] {
    const s = this.bytes(this.u32()).toString('utf8');
    return n === 0 ? [] : s.split('\0');
  }
  floats(n: number): Float64Array {
    const copy = new Float64Array(n);
    Buffer.from(copy.buffer).set(this.bytes(n * 8));
    return copy;
  }
  oid(): string | undefined {
    const raw = this.bytes(20);
    return raw.every((x) => x === 0) ? undefined : raw.toString('hex');
  }
}

/** Decodes one encoded cache at the cursor. Throws on a wrong magic/version or truncated data. */
export function decodeCache(c: Cursor): StatCacheData {
  if (c.u32() !== MAGIC || c.u32() !== VERSION) throw new Error('format');
  const [nFiles, nDirs, nTrees] = [c.u32(), c.u32(), c.u32()];
  const tree = c.oid();
  const trees = new Set<string>();
  for (let i = 0; i < nTrees; i++) trees.add(c.oid() as string);
  const paths = c.strings(nFiles);
  const nums = c.floats(nFiles * 5);
  // One hex conversion for all ids; slices of it are cheap (no copy), 20k native calls are not.
  const oids = c.bytes(nFiles * 20).toString('hex');
  const racy = c.bytes(nFiles);
  const entries = new Map<string, StatEntry>();
  for (let i = 0; i < nFiles; i++) {
    const k = i * 5;
    entries.set(paths[i] as string, {
      size: nums[k]!,
      mtimeMs: nums[k + 1]!,
      ctimeMs: nums[k + 2]!,
      ino: nums[k + 3]!,
      mode: nums[k + 4]!,
      oid: oids.slice(i * 40, i * 40 + 40),
      racy: racy[i] === 1,
      seen: 0,
    });
  }
  const dirPaths = c.strings(nDirs);
  const dirNames = c.strings(nDirs);
  const dnums = c.floats(nDirs * 4);
  const dirs = new Map<string, DirRecord>();
  for (let i = 0; i < nDirs; i++) {
    const k = i * 4;
    dirs.set(dirPaths[i] as string, {
      mtimeMs: dnums[k]!,
      ctimeMs: dnums[k + 1]!,
      ino: dnums[k + 2]!,
      count: dnums[k + 3]!,
      names: dirNames[i] ?? '',
      oid: c.oid(),
      racy: c.bytes(1)[0] === 1,
      seen: 0,
    });
  }
  if (paths.length !== nFiles || dirPaths.length !== nDirs) throw new Error('truncated');
  return { tree, trees, entries, dirs };
}

/** NUL-joined strings with a byte-length prefix. */
export function stringsBlock(list: string[]): Buffer[] {
  const body = Buffer.from(list.join('\0'));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(body.length);
  return [len, body];
}

/** 20 id bytes (zeros for none). */
export function oidBytes(oid: string | undefined): Buffer {
  return oid ? Buffer.from(oid, 'hex') : Buffer.alloc(20);
}

/** Encodes `data` (columns are filled in place: this runs after every changed track). */
export function encodeCache(data: StatCacheData): Buffer {
  const n = data.entries.size;
  const paths: string[] = [];
  const nums = new Float64Array(n * 5);
  const oids = Buffer.alloc(n * 20);
  const racy = Buffer.alloc(n);
  let i = 0;
  for (const [p, e] of data.entries) {
    paths.push(p);
    const k = i * 5;
    nums[k] = e.size;
    nums[k + 1] = e.mtimeMs;
    nums[k + 2] = e.ctimeMs;
    nums[k + 3] = e.ino;
    nums[k + 4] = e.mode;
    oids.write(e.oid, i * 20, 'hex');
    racy[i++] = e.racy ? 1 : 0;
  }
  const m = data.dirs.size;
  const dirPaths: string[] = [];
  const dirNames: string[] = [];
  const dnums = new Float64Array(m * 4);
  const dtail = Buffer.alloc(m * 21);
  let j = 0;
  for (const [p, d] of data.dirs) {
    dirPaths.push(p);
    dirNames.push(d.names);
    const k = j * 4;
    dnums[k] = d.mtimeMs;
    dnums[k + 1] = d.ctimeMs;
    dnums[k + 2] = d.ino;
    dnums[k + 3] = d.count;
    if (d.oid) dtail.write(d.oid, j * 21, 'hex');
    dtail[j * 21 + 20] = d.racy ? 1 : 0;
    j++;
  }
  const trees = Buffer.alloc(data.trees.size * 20);
  let t = 0;
  for (const id of data.trees) trees.write(id, t++ * 20, 'hex');
  const head = Buffer.alloc(20);
  [MAGIC, VERSION, n, m, data.trees.size].forEach((v, x) => head.writeUInt32LE(v, x * 4));
  const parts = [
    head,
    oidBytes(data.tree),
    trees,
    ...stringsBlock(paths),
    Buffer.from(nums.buffer),
    oids,
    racy,
    ...stringsBlock(dirPaths),
    ...stringsBlock(dirNames),
    Buffer.from(dnums.buffer),
    dtail,
  ];
  return Buffer.concat(parts);
}
