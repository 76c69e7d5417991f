/**
 * Revert and restore never write a file in place (the hostile review: an O_TRUNC write through a hard link
 * overwrote a file outside the project, and a kill left files cut to 0 B): the new bytes go to a temp file and a
 * rename, so a hard link to an outside file is broken (the outside file keeps its bytes) and no temp file stays.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from './store';
import { cleanup, tempDir } from './test-support';

describe('restore and revert write by rename, never in place', () => {
  it('a file hard-linked to one outside the project: revert and restore leave the outside file as it was', async () => {
    const base = tempDir('hardlink');
    const wt = join(base, 'wt');
    mkdirSync(wt);
    mkdirSync(join(base, 'outside'));
    try {
      const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), log: () => undefined });
      try {
        writeFileSync(join(wt, 'a.txt'), 'snapshot bytes\n');
        const tree = await store.track();
        writeFileSync(join(base, 'outside', 'a.txt'), 'OUTSIDE\n');
        // a.txt is now the outside file's other name (same inode)
        linkSync(join(base, 'outside', 'a.txt'), join(wt, 'a.txt.tmp'));
        renameSync(join(wt, 'a.txt.tmp'), join(wt, 'a.txt'));
        expect(statSync(join(wt, 'a.txt')).nlink).toBe(2);
        const r = await store.revert([{ hash: tree, files: ['a.txt'] }]);
        expect(r.restored).toEqual(['a.txt']);
        expect(readFileSync(join(wt, 'a.txt'), 'utf8')).toBe('snapshot bytes\n');
        expect(readFileSync(join(base, 'outside', 'a.txt'), 'utf8')).toBe('OUTSIDE\n');
        expect(statSync(join(wt, 'a.txt')).nlink).toBe(1);
        linkSync(join(base, 'outside', 'a.txt'), join(wt, 'b.txt'));
        writeFileSync(join(wt, 'b.txt'), 'OUTSIDE, changed through the link\n');
        await store.track();
        // b.txt is absent from the tree: restore removes that name, never the outside file's bytes
        expect((await store.restore(tree)).deleted).toEqual(['b.txt']);
        expect(readFileSync(join(base, 'outside', 'a.txt'), 'utf8')).toBe('OUTSIDE, changed through the link\n');
        expect(readdirSync(wt).sort()).toEqual(['a.txt']);
      } finally {
        await store.close();
      }
    } finally {
      cleanup(base);
    }
  });
});
