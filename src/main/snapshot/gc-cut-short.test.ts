/**
 * A gc cut short (a hostile review: killed midway, it left a root whose children it had removed, in whatever order
 * the folder listing gave). gc now writes everything it will remove into `landfall-gc` before the first removal;
 * the next store to take the lock — one opening, or one already open that sees the stamp change — finishes it, so
 * every tree is whole or gone before anyone trusts the store again. Here the gc is stopped right after it wrote the
 * list and one pack's index went, as a SIGKILL there would leave it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, unlinkSync, utimesSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFailure } from '../../shared/errors';
import { ObjectDb } from './git/object-db';
import { TreeReader } from './git/tree-read';
import { runGc, type Doomed } from './gc';
import { SnapshotStore } from './index';
import { cleanup, hasGit, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

/** Sets the mtime of every object file now in the store two hours back. */
function age(gitdir: string): void {
  const old = new Date(Date.now() - 2 * 3600_000);
  for (const d of readdirSync(join(gitdir, 'objects'), { recursive: true, withFileTypes: true }))
    if (d.isFile()) utimesSync(join(d.parentPath, d.name), old, old);
}

describe('a gc cut short', () => {
  for (const who of ['opening', 'open'] as const) {
    it(`is finished by the next store to take the lock (${who})`, async () => {
      const base = tempDir(`gccut${who}`);
      made.push(base);
      const wt = join(base, 'wt');
      const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [], log: () => undefined };
      mkdirSync(join(wt, 'd'), { recursive: true });
      for (let i = 0; i < 5; i++) writeFileSync(join(wt, `d/f${i}`), `v0 ${i}`);
      const s = await SnapshotStore.open(opts);
      const trees = [await s.track()];
      for (let k = 1; k <= 4; k++) {
        writeFileSync(join(wt, `d/f${k}`), `v${k}`);
        writeFileSync(join(wt, `g${k}`), `g${k}`);
        trees.push(await s.track());
      }
      const other = who === 'open' ? await SnapshotStore.open(opts) : undefined;
      if (other) await other.track();
      age(s.gitdir);
      for (let i = 0; i < 5; i++) writeFileSync(join(wt, `d/f${i}`), `last ${i}`);
      const last = await s.track();
      await s.close();
      // The gc, stopped once its list is written and the first pack's index is gone.
      const db = new ObjectDb(s.gitdir);
      let listed: Doomed | undefined;
      expect(() =>
        runGc(db, new TreeReader(db), [last], 3600_000, {
          beforeRemove: (doomed) => {
            listed = doomed;
            const tmp = join(s.gitdir, 'landfall-gc.tmp-test');
            writeFileSync(tmp, JSON.stringify({ pid: 1, time: Date.now(), doomed }));
            renameSync(tmp, join(s.gitdir, 'landfall-gc'));
            const first = doomed.packs[0];
            if (first) unlinkSync(join(s.gitdir, 'objects', 'pack', `${first}.idx`));
            throw new Error('killed');
          },
        }),
      ).toThrow('killed');
      db.close();
      expect((listed?.loose.length ?? 0) + (listed?.packs.length ?? 0)).toBeGreaterThan(0);
      const next = other ?? (await SnapshotStore.open(opts));
      expect(await next.track()).toBe(last); // takes the lock: the gc is finished first
      const check = new ObjectDb(s.gitdir);
      const whole: string[] = [];
      for (const t of trees) {
        const rootThere = check.has(t);
        const files = await next.listFiles(t).then(
          (fs) => fs.length,
          (e: unknown) => (isFailure(e, 'not_found') ? 'not_found' : String(e)),
        );
        expect([t, typeof files === 'number' ? 'whole' : files]).toEqual([t, rootThere ? 'whole' : 'not_found']);
        if (rootThere) whole.push(t);
      }
      check.close();
      for (const name of listed?.packs ?? [])
        expect(readdirSync(join(s.gitdir, 'objects', 'pack'))).not.toContain(`${name}.pack`);
      await next.close();
      if (hasGit()) {
        [...whole, last].forEach((t, i) =>
          execFileSync('git', ['--git-dir', s.gitdir, 'update-ref', `refs/tags/t${i}`, t]),
        );
        execFileSync('git', ['--git-dir', s.gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
      }
    });
  }
});
