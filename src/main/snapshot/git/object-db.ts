/**
 * The store's object database, read and written synchronously: loose objects (`objects/xx/yyyy…`, zlib of
 * `<type> <size>\0<content>`; read only — written by earlier versions, and by git) and packs written by
 * PackWriter. Layout is plain git, so isomorphic-git (and native git) read the same store. Writing goes through
 * `ObjectSink`: every operation's new objects become one pack (a first track one big pack; a step's track a small
 * one — two file creates instead of one per object, which on a busy disk is most of a small track's time), and
 * packs are merged geometrically (`mergePacks`), so lookups never search more than a few dozen packs.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { ObjectType } from './object-id';
import { PackFile, ReadCache } from './pack-index';
import { PackWriter } from './pack-writer';

/** Packs below this size (bytes) have their ids in one set, so `has` does not search them one by one. */
export const SMALL_PACK_BYTES = 4 << 20;
/** Packs below this size (bytes) may be merged (a first track's big pack, with its deltas, never is). */
export const MERGEABLE_PACK_BYTES = 64 << 20;
/** Packs out of geometric order from which they are merged into one. */
export const PACKS_MERGED = 32;

/** Object database rooted at a bare git dir (`<gitdir>/objects`). */
export class ObjectDb {
  readonly objectsDir: string;
  private packs: PackFile[] = [];
  /**
   * The loose-object folders (`objects/xx`) present when last listed: `has` looks for a loose file only there
   * (this store writes none; older stores and git do). Listed again with the packs.
   */
  private looseDirs: Set<string> | undefined;
  /** Ids held by the small packs (see SMALL_PACK_BYTES): `has` looks them up at once instead of pack by pack. */
  private smallIds = new Set<string>();
  /** Objects recently read from any pack (one bound for all packs). */
  private readonly readCache = new ReadCache();
  /**
   * Objects held in memory for one operation (see `ObjectSink`'s memory mode), read before the disk. Set and
   * cleared by the operation's owner while it holds the store lock.
   */
  overlay: Map<string, { type: ObjectType; content: Buffer }> | undefined;

  /** `gitdir` must exist; packs present now are opened. */
  constructor(readonly gitdir: string) {
    this.objectsDir = join(gitdir, 'objects');
    this.reloadPacks();
  }

  /** Re-reads the list of packs (after a pack was added or removed). */
  reloadPacks(): void {
    this.looseDirs = undefined;
    for (const p of this.packs) p.close();
    this.readCache.clear();
    const dir = join(this.objectsDir, 'pack');
    mkdirSync(dir, { recursive: true });
    this.packs = readdirSync(dir)
      .filter((n) => n.startsWith('pack-') && n.endsWith('.idx') && existsSync(join(dir, n.replace(/\.idx$/, '.pack'))))
      .map((n) => new PackFile(join(dir, n.slice(0, -4)), this.readCache));
    this.indexSmall();
  }

  /** Rebuilds `smallIds` from the open packs. */
  private indexSmall(): void {
    this.smallIds = new Set();
    for (const p of this.packs) if (p.bytes < SMALL_PACK_BYTES) for (const id of p.ids()) this.smallIds.add(id);
  }

  /** The open packs. */
  get packFiles(): readonly PackFile[] {
    return this.packs;
  }

  /**
   * Opens one pack just written (`<base>.idx` / `.pack`), without reopening the others. `written`: its idx bytes
   * and pack size when this process wrote it (PackWriter.written), so the idx is not read back.
   */
  addPack(base: string, written?: { idx: Buffer; packSize: number }): void {
    // A step can write a pack byte-identical to one already open (its trees are put without a lookup): one
    // PackFile per pack, or gc and merging would remove it twice.
    if (this.packs.some((p) => p.base === base)) return;
    const p = new PackFile(base, this.readCache, written);
    this.packs.push(p);
    if (p.bytes < SMALL_PACK_BYTES) for (const id of p.ids()) this.smallIds.add(id);
  }

  /**
   * Merges packs geometrically, as git's `repack --geometric=2` does: of the packs below MERGEABLE_PACK_BYTES, one
   * at least twice the size of all smaller ones together is kept, and once `from` others have gathered (a step
   * adds one) they are merged into one — so there are about log2(n) packs after n steps, and an object is
   * rewritten about log2(n) times, not once per merge. Objects a step stored uncompressed are compressed (on the
   * deflate helper), a delta is stored whole, the others are copied as stored (no inflate / deflate). The objects
   * go to a new pack first, then the merged packs are removed — a crash in between leaves duplicates, never a
   * missing object. Another process still reading a removed pack keeps its open descriptor, and re-reads the pack
   * list when an object is not found (`read`). Answers the number of packs merged (0: not yet due).
   */
  mergePacks(from = PACKS_MERGED): number {
    const small = this.packs.filter((p) => p.bytes < MERGEABLE_PACK_BYTES).sort((a, b) => a.bytes - b.bytes);
    let below = 0;
    for (const p of small) below += p.bytes;
    while (small.length > 1 && (small.at(-1) as PackFile).bytes >= 2 * (below - (small.at(-1) as PackFile).bytes)) {
      below -= (small.pop() as PackFile).bytes;
    }
    if (small.length < Math.max(2, from)) return 0;
    const writer = new PackWriter(join(this.objectsDir, 'pack'));
    let base: string;
    try {
      for (const p of small)
        for (const id of p.ids()) {
          // Stored uncompressed (a step's pack: zlib level 0 is no smaller than the object) → compress it now.
          const s = p.stored(id);
          const o = s && s.body.length < s.size ? undefined : p.read(id);
          if (o) writer.add(o.type, o.content, id);
          else if (s) writer.addStored(s.type, s.size, s.body, id);
        }
      base = writer.finish();
    } catch (e) {
      writer.abort();
      throw e;
    }
    const gone = small.filter((p) => p.base !== base); // the same objects in the same order make the same pack
    if (gone.length === small.length) this.addPack(base, writer.written);
    for (const p of gone) {
      p.close();
      unlinkSync(`${p.base}.idx`);
      unlinkSync(`${p.base}.pack`);
    }
    this.packs = this.packs.filter((p) => !gone.includes(p));
    this.indexSmall();
    this.readCache.clear();
    return small.length;
  }

  /** True when the store holds no object at all (a fresh store: nothing needs looking up before writing). */
  isEmpty(): boolean {
    return (
      this.packs.length === 0 &&
      readdirSync(this.objectsDir).every((n) => n === 'info' || n === 'pack' || n.startsWith('tmp_'))
    );
  }

  /** Path of the loose file for `oid`. */
  loosePath(oid: string): string {
    return join(this.objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  /**
   * True when the store holds `oid`, loose or packed. A loose object another process wrote into a folder this
   * store had not seen may be missed: the caller then writes the object again, which is harmless.
   */
  has(oid: string): boolean {
    if (this.overlay?.has(oid)) return true;
    if (this.smallIds.has(oid)) return true;
    const id = Buffer.from(oid, 'hex');
    for (const p of this.packs) if (p.bytes >= SMALL_PACK_BYTES && p.hasId(id)) return true;
    this.looseDirs ??= new Set(readdirSync(this.objectsDir).filter((n) => /^[0-9a-f]{2}$/.test(n)));
    return this.looseDirs.has(oid.slice(0, 2)) && existsSync(this.loosePath(oid));
  }

  /**
   * Reads an object, or undefined when absent. Packs are searched first (an in-memory lookup; trying the loose
   * path first cost a failed open per object, 20,000 of them in a full restore). Throws on a corrupt object (a
   * bug or a damaged store).
   */
  read(oid: string): { type: ObjectType; content: Buffer } | undefined {
    const held = this.overlay?.get(oid);
    if (held) return held;
    for (const p of this.packs) {
      const o = p.read(oid);
      if (o) return o;
    }
    let raw: Buffer | undefined;
    try {
      raw = readFileSync(this.loosePath(oid));
    } catch {
      return this.packsChanged() ? this.read(oid) : undefined;
    }
    const all = inflateSync(raw);
    const sp = all.indexOf(0x20);
    const nul = all.indexOf(0, sp);
    return { type: all.toString('latin1', 0, sp) as ObjectType, content: all.subarray(nul + 1) };
  }

  /**
   * True (and the pack list re-read) when the packs on disk are not the ones open here: another process sharing
   * the store added or merged packs. Called when an object is not found, so a miss is rechecked once.
   */
  private packsChanged(): boolean {
    const dir = join(this.objectsDir, 'pack');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.idx'));
    } catch {
      return false;
    }
    const open = new Set(this.packs.map((p) => `${p.base.slice(p.base.lastIndexOf('/') + 1)}.idx`));
    if (names.length === open.size && names.every((n) => open.has(n))) return false;
    this.reloadPacks();
    return true;
  }

  /** Closes pack file descriptors. */
  close(): void {
    for (const p of this.packs) p.close();
    this.packs = [];
    this.readCache.clear();
  }
}

/** Collects the new objects of one operation into one pack. */
export class ObjectSink {
  private pack: PackWriter | undefined;
  /** Ids written by this sink (so a second file with the same content is not looked up again). */
  readonly written = new Set<string>();

  private readonly fresh: boolean;
  /** Called with each new tree written (the store's tree reader keeps them: they are read back by `changed`). */
  onTree: ((oid: string, content: Uint8Array) => void) | undefined;

  /**
   * `bulk`: many new objects are expected (a first track): bodies are compressed on the helper thread at level 6
   * (else in this thread at level 1, as a few objects are compressed fastest).
   * `memory`: write nothing; new trees go into this map instead and new blobs are only hashed (a walk whose
   * tree is only compared, never kept: the caller sets the map as the db's overlay while it reads those trees).
   */
  constructor(
    private readonly db: ObjectDb,
    private readonly bulk = false,
    private readonly memory?: Map<string, { type: ObjectType; content: Buffer }>,
  ) {
    this.fresh = bulk && !memory && db.isEmpty();
  }

  /**
   * Stores `content` under `oid` unless the store already has it. `path` (a blob's slash-separated path in the
   * tree) lets a packed blob be stored as a delta against a similar earlier one; `content` must then stay unchanged.
   */
  put(type: ObjectType, content: Uint8Array, oid: string, knownAbsent = false, path?: string): void {
    if (this.written.has(oid)) return;
    if (!knownAbsent && !this.fresh && this.db.has(oid)) return;
    this.written.add(oid);
    if (this.memory) {
      if (type === 'tree')
        this.memory.set(oid, { type, content: Buffer.from(content.buffer, content.byteOffset, content.byteLength) });
      return;
    }
    this.pack ??= this.bulk
      ? new PackWriter(join(this.db.objectsDir, 'pack'))
      : new PackWriter(join(this.db.objectsDir, 'pack'), 1, true);
    // A small pack is not worth a delta search: it is rewritten (compressed) when merged.
    this.pack.add(type, content, oid, this.bulk ? path : undefined);
    if (type === 'tree') this.onTree?.(oid, content);
  }

  /**
   * Makes the pending pack visible. Call once, after the last put. Packs are merged here only past four times
   * PACKS_MERGED (the owner merges them when idle: `ObjectDb.mergePacks`).
   */
  finish(): void {
    if (!this.pack) return;
    const pack = this.pack;
    this.pack = undefined;
    if (pack.count === 0) return pack.abort();
    this.db.addPack(pack.finish(), pack.written);
    this.db.mergePacks(4 * PACKS_MERGED);
  }

  /** Throws away a pending pack (the operation failed). */
  abort(): void {
    this.pack?.abort();
    this.pack = undefined;
  }
}
