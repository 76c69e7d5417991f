/**
 * Git tree objects: encoding (entries sorted the way git sorts them — by name bytes, a subtree compared as if
 * its name ended in "/") and parsing. Modes are git's octal strings: 100644 file, 100755 executable,
 * 120000 symlink, 40000 tree (written without a leading zero, exactly as git writes it, so ids match).
 */

export type EntryMode = '100644' | '100755' | '120000' | '40000' | '160000';

/** One entry of a tree. */
export interface TreeEntry {
  name: string;
  mode: EntryMode;
  oid: string;
}

/** Any character outside 7-bit ASCII (names never hold NUL). */
const NON_ASCII = /[^ -\u007f\t\n\r]/;

function sortKey(e: TreeEntry): string {
  return e.mode === '40000' ? `${e.name}/` : e.name;
}

/** Git's tree order. Non-ASCII names are compared as UTF-8 bytes, which is what git compares. */
export function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (!NON_ASCII.test(ka) && !NON_ASCII.test(kb)) return ka < kb ? -1 : ka > kb ? 1 : 0;
  return Buffer.compare(Buffer.from(ka), Buffer.from(kb));
}

/** The entries each content `encodeTree` returned was made from (held as long as the content is). */
const encoded = new WeakMap<Uint8Array, readonly TreeEntry[]>();

/**
 * The entries (in tree order) of tree content that `encodeTree` returned in this thread, or undefined: a tree a
 * track just wrote is then read back without parsing its bytes.
 */
export function encodedEntries(content: Uint8Array): readonly TreeEntry[] | undefined {
  return encoded.get(content);
}

/**
 * Serialises entries (sorted here, in place, by `compareEntries`) into tree object content. Each sort key is made
 * once (a step's tracks encode every changed folder, the root included), and the content is written into one
 * buffer.
 */
export function encodeTree(entries: TreeEntry[]): Buffer {
  const keyed = entries.map((e) => ({ e, k: sortKey(e) }));
  if (keyed.every((x) => !NON_ASCII.test(x.k))) keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  else {
    const bytes = new Map(keyed.map((x) => [x, Buffer.from(x.k)]));
    keyed.sort((a, b) => Buffer.compare(bytes.get(a) as Buffer, bytes.get(b) as Buffer));
  }
  let size = 0;
  for (let i = 0; i < keyed.length; i++) {
    const e = (keyed[i] as { e: TreeEntry }).e;
    entries[i] = e;
    size += e.mode.length + Buffer.byteLength(e.name) + 22;
  }
  const out = Buffer.allocUnsafe(size);
  let p = 0;
  for (const e of entries) {
    p += out.write(e.mode, p, 'latin1');
    out[p++] = 0x20;
    p += out.write(e.name, p, 'utf8');
    out[p++] = 0;
    p += out.write(e.oid, p, 'hex');
  }
  encoded.set(out, entries); // the caller's array: encoding is the last thing done with it (walk.ts)
  return out;
}

/** Bytes entry `e` takes in tree content: mode, space, name (UTF-8), NUL, 20-byte id. */
function entryBytes(e: TreeEntry): number {
  return e.mode.length + (NON_ASCII.test(e.name) ? Buffer.byteLength(e.name) : e.name.length) + 22;
}

/**
 * Tree content for `entries` with the entries at the indices of `changed` replaced by theirs, made from `content`
 * (the tree's bytes, whose entries in order are `entries`) by copying it and writing the new ids in place — what
 * `encodeTree` would return, without sorting or encoding a name. Each new entry must have the name and mode of
 * the one it replaces (only its id differs); undefined when one does not, or `content` is not `entries`' bytes
 * (the caller then encodes). Like encodeTree, remembers the new entries for `encodedEntries`.
 */
export function replaceIds(
  content: Uint8Array,
  entries: readonly TreeEntry[],
  changed: ReadonlyMap<number, TreeEntry>,
): Buffer | undefined {
  const at = new Map<number, number>();
  let size = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as TreeEntry;
    size += entryBytes(e);
    const next = changed.get(i);
    if (next) {
      if (next.name !== e.name || next.mode !== e.mode) return undefined;
      at.set(i, size - 20);
    }
  }
  if (size !== content.length || at.size !== changed.size) return undefined;
  const out = Buffer.allocUnsafe(size);
  out.set(content);
  const next = entries.slice();
  for (const [i, e] of changed) {
    out.write(e.oid, at.get(i) as number, 'hex');
    next[i] = e;
  }
  encoded.set(out, next);
  return out;
}

/** The modes a tree entry has, each as one shared string ('040000', as some tools write it, is '40000'). */
const MODE_NAMES = new Map<string, EntryMode>([
  ['40000', '40000'],
  ['040000', '40000'],
  ['100644', '100644'],
  ['100755', '100755'],
  ['120000', '120000'],
  ['160000', '160000'],
]);

/** Parses tree object content into entries (in stored order). Throws on malformed content. */
export function parseTree(content: Buffer): TreeEntry[] {
  const out: TreeEntry[] = [];
  let p = 0;
  while (p < content.length) {
    const sp = content.indexOf(0x20, p);
    const nul = content.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > content.length) throw new Error('malformed tree object');
    const mode = content.toString('latin1', p, sp);
    out.push({
      // One string per mode, not one per entry (a 100,000-file listing held 100,000 copies of "100644").
      mode: MODE_NAMES.get(mode) ?? (mode as EntryMode),
      name: content.toString('utf8', sp + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 21),
    });
    p = nul + 21;
  }
  return out;
}

/** True for a mode that is a blob (file or link). */
export function isBlobMode(mode: string): boolean {
  return mode === '100644' || mode === '100755' || mode === '120000';
}
