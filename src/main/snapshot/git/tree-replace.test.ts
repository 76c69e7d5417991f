/**
 * replaceIds (tree.ts): a tree's bytes with some entries' ids written in place must be byte for byte what encoding
 * the changed entries gives — for any names (non-ASCII ones take more bytes than characters), modes and ids — and
 * it must refuse (undefined) a change of name or mode, or bytes that are not the entries' own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTree, encodedEntries, replaceIds, type EntryMode, type TreeEntry } from './tree';

const oid = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));
const mode = fc.constantFrom<EntryMode>('100644', '100755', '120000', '40000');
const name = fc.oneof(
  fc.stringMatching(/^[a-z._-]{1,12}$/),
  fc.constantFrom('é', 'naïve.txt', '日本', 'z', 'a-b', 'a.b', 'a'),
);
const entries = fc.uniqueArray(fc.record({ name, mode, oid }), {
  selector: (e) => e.name,
  minLength: 1,
  maxLength: 30,
});

describe('replaceIds', () => {
  it('equals encoding the changed entries, and remembers them for encodedEntries', () => {
    fc.assert(
      fc.property(entries, fc.array(fc.tuple(fc.nat(), oid), { maxLength: 5 }), (list, picks) => {
        const sorted = [...list];
        const bytes = encodeTree(sorted); // sorts `sorted` into tree order
        const changed = new Map<number, TreeEntry>();
        for (const [k, id] of picks) {
          const i = k % sorted.length;
          changed.set(i, { ...(sorted[i] as TreeEntry), oid: id });
        }
        const want = encodeTree(sorted.map((e, i) => changed.get(i) ?? e));
        const got = replaceIds(bytes, sorted, changed);
        expect(got?.equals(want)).toBe(true);
        expect(encodedEntries(got as Buffer)?.map((e) => e.oid)).toEqual(
          sorted.map((e, i) => (changed.get(i) ?? e).oid),
        );
        expect(bytes.equals(encodeTree([...sorted]))).toBe(true); // the old bytes are left as they were
      }),
    );
  });

  it('refuses a changed name or mode, and bytes that are not the entries', () => {
    const list: TreeEntry[] = [
      { name: 'a', mode: '100644', oid: 'a'.repeat(40) },
      { name: 'src', mode: '40000', oid: 'b'.repeat(40) },
    ];
    const bytes = encodeTree(list);
    expect(replaceIds(bytes, list, new Map([[1, { name: 'src', mode: '100644', oid: 'c'.repeat(40) }]]))).toBe(
      undefined,
    );
    expect(replaceIds(bytes, list, new Map([[1, { name: 'srd', mode: '40000', oid: 'c'.repeat(40) }]]))).toBe(
      undefined,
    );
    expect(replaceIds(bytes.subarray(1), list, new Map())).toBe(undefined);
    expect(replaceIds(bytes, list, new Map([[5, { name: 'x', mode: '40000', oid: 'c'.repeat(40) }]]))).toBe(undefined);
  });
});
