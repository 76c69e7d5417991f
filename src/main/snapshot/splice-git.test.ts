/**
 * A folder listed as before (walk.ts `listedAsBefore`) never takes a `.git` into the snapshot (a hostile review):
 * a nested repository's gitfile rewritten in place, or its `.git` folder touched, beside a changed file, gives the
 * tree a full walk gives — without the `.git`.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { backdateFolders, cleanup, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

describe('a folder listed as before and a nested .git', () => {
  for (const kind of ['gitfile', 'folder'] as const) {
    it(`leaves a nested .git ${kind} out`, async () => {
      const base = tempDir(`splicegit${kind}`);
      made.push(base);
      const wt = join(base, 'wt');
      mkdirSync(join(wt, 'sub'), { recursive: true });
      writeFileSync(join(wt, 'sub/a'), 'a');
      if (kind === 'gitfile') writeFileSync(join(wt, 'sub/.git'), 'gitdir: ../x\n');
      else {
        mkdirSync(join(wt, 'sub/.git/objects'), { recursive: true });
        writeFileSync(join(wt, 'sub/.git/HEAD'), 'ref: refs/heads/main\n');
      }
      backdateFolders(wt);
      const opts = { worktree: wt, ignoreDefaults: [] };
      const watched = await SnapshotStore.open({
        ...opts,
        dataDir: join(base, 'w'),
        watch: true,
        watchBackend: 'native',
      });
      const truth = await SnapshotStore.open({ ...opts, dataDir: join(base, 't') });
      try {
        expect(await watched.track({ verify: true })).toBe(await truth.track());
        expect(await watched.track()).toBe(await truth.track()); // the folders watched after the first walk
        if (kind === 'gitfile') writeFileSync(join(wt, 'sub/.git'), 'gitdir: ../y\n');
        else utimesSync(join(wt, 'sub/.git'), new Date(), new Date(Date.now() - 3600_000));
        writeFileSync(join(wt, 'sub/a'), 'b');
        const got = await watched.track();
        expect(watched.lastSplicedListed).toBe(1);
        expect(got).toBe(await truth.track());
        expect((await watched.listFiles(got)).map((f) => f.path)).toEqual(['sub/a']);
      } finally {
        await watched.close();
        await truth.close();
      }
    });
  }
});
