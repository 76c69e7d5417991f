/**
 * Left-out records (left-out.ts) hold any file name: one with a newline in it stays one path when the record is
 * read back from disk (a hostile review: the record was newline-separated, so after a reopen an ignored
 * `secret\n.env` counted as captured and a revert deleted it). Records written before the header are still read.
 * A record grows from what is on disk (another process may have added to it), and one read before is read again
 * when its file changed (a hostile review: a stale copy in memory let a revert delete a file left out elsewhere).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LeftOutRecords, parseRecord } from './left-out';
import { SnapshotStore } from './index';
import { cleanup, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

describe('left-out records', () => {
  it('an ignored file whose name holds a newline survives a revert in a reopened store', async () => {
    const base = tempDir('leftnl');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt, { recursive: true });
    const name = 'secret\n.env';
    writeFileSync(join(wt, name), 'password');
    writeFileSync(join(wt, '.gitignore'), '*.env\n');
    const opts = { worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] };
    let s = await SnapshotStore.open(opts);
    const t0 = await s.track();
    writeFileSync(join(wt, '.gitignore'), ''); // a step un-ignores it
    await s.track();
    const p = await s.patch(t0);
    expect(p.files).toContain(name);
    await s.close();
    s = await SnapshotStore.open(opts); // t0's record is read back from disk
    expect(await s.notCaptured([{ path: name, tree: t0 }])).toEqual([name]);
    const r = await s.revert([p]);
    expect(r.deleted).not.toContain(name);
    expect(existsSync(join(wt, name)) && readFileSync(join(wt, name), 'utf8')).toBe('password');
    await s.close();
  });

  it('reads both formats; a damaged line makes the record unreadable (the tree then leaves everything out)', () => {
    expect(parseRecord('')).toEqual(new Set());
    expect(parseRecord('a.env\nbuild/')).toEqual(new Set(['a.env', 'build/'])); // first-version record
    expect(parseRecord('#landfall-left-out 2\n"a\\nb.env"\n"build/"')).toEqual(new Set(['a\nb.env', 'build/']));
    expect(parseRecord('#landfall-left-out 2\n"a.env"\nbroken')).toBe(undefined);
  });

  it('a record another process grew is read again; a record grows from what is on disk', () => {
    const dir = join(tempDir('leftgrow'), 'records');
    made.push(join(dir, '..'));
    const tree = 'a'.repeat(40);
    const mine = new LeftOutRecords(dir);
    mine.record(tree, ['x.env', 'build/']);
    expect(readFileSync(join(dir, tree), 'utf8')).toBe('#landfall-left-out 2\n"build/"\n"x.env"');
    expect(mine.covers(tree, 'build/out.js')).toBe(true);
    expect(mine.covers(tree, 'y.env')).toBe(false);
    // Another process (a store of another window) adds to the same tree's record.
    new LeftOutRecords(dir).record(tree, ['y.env']);
    expect(mine.covers(tree, 'y.env')).toBe(true); // not the copy this object read before
    mine.record(tree, ['z.env']);
    expect(readFileSync(join(dir, tree), 'utf8')).toBe('#landfall-left-out 2\n"build/"\n"x.env"\n"y.env"\n"z.env"');
    expect(new LeftOutRecords(dir).covers(tree, 'src/a.ts')).toBe(false);
  });

  it('a track writes its record at once', async () => {
    const base = tempDir('leftclose');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, '.gitignore'), '*.env\n');
    writeFileSync(join(wt, 'a.env'), 'k');
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    const t = await s.track();
    const file = join(s.gitdir, 'landfall-left-out', t);
    expect(readFileSync(file, 'utf8')).toBe('#landfall-left-out 2\n"a.env"');
    expect(await s.notCaptured([{ path: 'a.env', tree: t }])).toEqual(['a.env']);
    await s.close();
  });
});
