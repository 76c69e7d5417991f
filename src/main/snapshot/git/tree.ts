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

/** Serialises entries (sorted here) into tree object content. */
export function encodeTree(entries: TreeEntry[]): Buffer {
  entries.sort(compareEntries);
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

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
      mode: (mode === '040000' ? '40000' : mode) as EntryMode,
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
