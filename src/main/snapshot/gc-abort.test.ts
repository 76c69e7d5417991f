/**
 * gc that fails while rewriting a pack (a damaged object, a full disk) leaves nothing behind: its sink is aborted
 * before the error is passed on — no temporary pack file, no open descriptor, no bodies held by the deflate helper.
 */
import { openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { hashObject } from './git/object-id';
import { cleanup, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

/** Offset in `<base>.pack` of object `oid`, from the v2 `.idx` (small packs: 31-bit offsets). */
function offsetOf(base: string, oid: string): number {
  const idx = readFileSync(`${base}.idx`);
  const n = idx.readUInt32BE(8 + 255 * 4);
  for (let i = 0; i < n; i++) {
    if (idx.toString('hex', 1032 + i * 20, 1052 + i * 20) === oid) return idx.readUInt32BE(1032 + n * 24 + i * 4);
  }
  throw new Error(`${oid} not in ${base}`);
}

describe('gc over a damaged pack', () => {
  it('fails and leaves no temporary pack behind', async () => {
    const root = tempDir('gcabort');
    dirs.push(root);
    const wt = join(root, 'wt');
    mkdirSync(wt);
    const names = Array.from({ length: 300 }, (_, i) => `f${i}.txt`);
    for (const [i, n] of names.entries()) writeFileSync(join(wt, n), `file ${i}\n`);
    const dataDir = join(root, 'data');
    let store = await SnapshotStore.open({ worktree: wt, dataDir, ignoreDefaults: [], log: () => {} });
    await store.track(); // one pack of 300 blobs and the root tree
    writeFileSync(join(wt, 'f0.txt'), 'changed\n');
    const kept = await store.track(); // the old f0 blob and root tree are now unreachable: gc rewrites the pack
    await store.close();
    const packDir = join(store.gitdir, 'objects', 'pack');
    // The first track's pack (the second track's small pack holds only the new f0 blob and root tree).
    const pack = readdirSync(packDir)
      .filter((n) => n.endsWith('.pack'))
      .sort((a, b) => statSync(join(packDir, b)).size - statSync(join(packDir, a)).size)[0] as string;
    const base = join(packDir, pack.slice(0, -5));
    // Damage the live blob gc copies last (ids are read in sorted order), after its pack has begun.
    const last = names
      .slice(1)
      .map((_, i) => hashObject('blob', Buffer.from(`file ${i + 1}\n`)))
      .sort()
      .at(-1) as string;
    const fd = openSync(`${base}.pack`, 'r+');
    writeSync(fd, Buffer.from([0xff, 0xff]), 0, 2, offsetOf(base, last) + 1); // the zlib header after a 1-byte entry header
    closeSync(fd);
    store = await SnapshotStore.open({ worktree: wt, dataDir, ignoreDefaults: [], log: () => {} });
    try {
      await expect(store.gc({ keep: [kept], olderThanMs: 0 })).rejects.toThrow();
      expect(readdirSync(packDir).filter((n) => n.startsWith('tmp_'))).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
