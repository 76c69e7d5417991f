/**
 * gc (gc.ts) from a hostile review: a tree younger than the retention keeps everything it reaches, as git keeps
 * what recent objects reach — a young, unkept tree used an old blob that gc removed, so a revert to it failed.
 * And the store's gc stamp is written before the first object goes (`beforeRemove`), so a gc killed midway still
 * tells other stores.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ObjectDb } from './git/object-db';
import { TreeReader } from './git/tree-read';
import { runGc } from './gc';
import { SnapshotStore } from './index';
import { cleanup, hasGit, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

/** Every file under the store's objects folder (relative paths, sorted). */
function objectFiles(gitdir: string): string[] {
  const root = join(gitdir, 'objects');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
    .sort();
}

/** Sets the mtime of every object file now in the store two hours back. */
function age(gitdir: string): void {
  const old = new Date(Date.now() - 2 * 3600_000);
  for (const f of objectFiles(gitdir)) utimesSync(join(gitdir, 'objects', f), old, old);
}

describe('gc and young trees', () => {
  it('keeps the old blobs a young unkept tree reaches', async () => {
    const base = tempDir('gcyoung');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(join(wt, 'a'), { recursive: true });
    writeFileSync(join(wt, 'a/f'), 'one');
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    await s.track();
    age(s.gitdir); // the first snapshot is old now
    writeFileSync(join(wt, 'a/f'), 'two');
    await s.track();
    writeFileSync(join(wt, 'a/f'), 'one');
    writeFileSync(join(wt, 'a/g'), 'new');
    const t2 = await s.track(); // young; its a/f blob is the old one
    writeFileSync(join(wt, 'a/f'), 'three');
    const t3 = await s.track();
    const report = await s.gc({ keep: [t3], olderThanMs: 3600_000 });
    expect(report.removedObjects).toBeGreaterThan(0); // the old root and folder trees went
    expect(Buffer.from((await s.readFile(t2, 'a/f')) ?? []).toString()).toBe('one');
    expect((await s.listFiles(t2)).map((f) => f.path)).toEqual(['a/f', 'a/g']);
    await s.close();
    if (hasGit()) {
      execFileSync('git', ['--git-dir', s.gitdir, 'update-ref', 'refs/tags/t2', t2]);
      execFileSync('git', ['--git-dir', s.gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
    }
  });

  it('calls beforeRemove once, before anything is removed, and not when nothing is', async () => {
    const base = tempDir('gchook');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, 'f'), 'one');
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    await s.track();
    writeFileSync(join(wt, 'f'), 'two');
    const t1 = await s.track();
    await s.close();
    const before = objectFiles(s.gitdir);
    const db = new ObjectDb(s.gitdir);
    const seen: string[][] = [];
    const hooks = { beforeRemove: () => void seen.push(objectFiles(s.gitdir)) };
    expect(runGc(db, new TreeReader(db), [t1], 0, hooks).removedObjects).toBeGreaterThan(0);
    expect(seen).toEqual([before]);
    expect(objectFiles(s.gitdir)).not.toEqual(before);
    seen.length = 0;
    expect(runGc(db, new TreeReader(db), [t1], 0, hooks).removedObjects).toBe(0);
    expect(seen).toEqual([]);
    db.close();
  });
});
