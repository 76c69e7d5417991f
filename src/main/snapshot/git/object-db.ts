/**
 * The store's object database, read and written synchronously: loose objects (`objects/xx/yyyy…`, zlib of
 * `<type> <size>\0<content>`) and packs written by PackWriter. Layout is plain git, so isomorphic-git (and native
 * git) read the same store. Writing goes through `ObjectSink`, which writes the first few new objects loose and
 * switches to one pack once a track brings many (a first track becomes one pack file).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type { ObjectType } from './object-id';
import { PackFile, ReadCache } from './pack-index';
import { PackWriter } from './pack-writer';

/** Loose objects a track writes before switching to a pack. */
const LOOSE_LIMIT = 128;

/** Object database rooted at a bare git dir (`<gitdir>/objects`). */
export class ObjectDb {
  readonly objectsDir: string;
  private packs: PackFile[] = [];
  private readonly madeDirs = new Set<string>();
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
    for (const p of this.packs) p.close();
    this.readCache.clear();
    const dir = join(this.objectsDir, 'pack');
    mkdirSync(dir, { recursive: true });
    this.packs = readdirSync(dir)
      .filter((n) => n.startsWith('pack-') && n.endsWith('.idx') && existsSync(join(dir, n.replace(/\.idx$/, '.pack'))))
      .map((n) => new PackFile(join(dir, n.slice(0, -4)), this.readCache));
  }

  /** The open packs. */
  get packFiles(): readonly PackFile[] {
    return this.packs;
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

  /** True when the store holds `oid`, loose or packed. */
  has(oid: string): boolean {
    if (this.overlay?.has(oid)) return true;
    for (const p of this.packs) if (p.has(oid)) return true;
    return existsSync(this.loosePath(oid));
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
      return undefined;
    }
    const all = inflateSync(raw);
    const sp = all.indexOf(0x20);
    const nul = all.indexOf(0, sp);
    return { type: all.toString('latin1', 0, sp) as ObjectType, content: all.subarray(nul + 1) };
  }

  /** Writes one loose object atomically (temp file + rename); no-op when the file exists. */
  writeLoose(type: ObjectType, content: Uint8Array, oid: string): void {
    const file = this.loosePath(oid);
    const dir = join(this.objectsDir, oid.slice(0, 2));
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    if (existsSync(file)) return;
    const body = deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 });
    const tmp = join(this.objectsDir, `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);
    writeFileSync(tmp, body);
    renameSync(tmp, file);
  }

  /** Closes pack file descriptors. */
  close(): void {
    for (const p of this.packs) p.close();
    this.packs = [];
    this.readCache.clear();
  }
}

/** Collects the new objects of one operation: loose at first, one pack once there are many. */
export class ObjectSink {
  private loose = 0;
  private pack: PackWriter | undefined;
  /** Ids written by this sink (so a second file with the same content is not looked up again). */
  readonly written = new Set<string>();

  private readonly fresh: boolean;

  /**
   * `bulk`: many new objects are expected (a first track), so write the pack from the first object on.
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
    if (!this.pack && !this.bulk && this.loose < LOOSE_LIMIT) {
      this.loose++;
      this.db.writeLoose(type, content, oid);
      return;
    }
    this.pack ??= new PackWriter(join(this.db.objectsDir, 'pack'));
    this.pack.add(type, content, oid, path);
  }

  /** Makes a pending pack visible. Call once, after the last put. */
  finish(): void {
    if (!this.pack) return;
    if (this.pack.count > 0) this.pack.finish();
    else this.pack.abort();
    this.pack = undefined;
    this.db.reloadPacks();
  }

  /** Throws away a pending pack (the operation failed). Loose objects already written are harmless. */
  abort(): void {
    this.pack?.abort();
    this.pack = undefined;
  }
}
