/**
 * Left-out records (left-out.ts) hold any file name: one with a newline in it stays one path when the record is
 * read back from disk (a hostile review: the record was newline-separated, so after a reopen an ignored
 * `secret\n.env` counted as captured and a revert deleted it). Records written before the header are still read.
 * A track's record is written later (idle, gc, close), joined with what another process wrote meanwhile; until
 * then a reader without it takes the tree as leaving everything out.
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

  it('a record is written by save, not by the track; save joins what another writer put on disk meanwhile', () => {
    const dir = join(tempDir('leftsave'), 'records');
    made.push(join(dir, '..'));
    const tree = 'a'.repeat(40);
    const mine = new LeftOutRecords(dir);
    mine.record(tree, ['x.env', 'build/']);
    expect(mine.dirty).toBe(true);
    expect(existsSync(join(dir, tree))).toBe(false);
    expect(mine.covers(tree, 'build/out.js')).toBe(true); // answered from memory
    expect(mine.covers(tree, 'src/a.ts')).toBe(false);
    // Another process, without the record: the tree leaves everything out (nothing absent from it is deleted).
    const other = new LeftOutRecords(dir);
    expect(other.covers(tree, 'src/a.ts')).toBe(true);
    other.record(tree, ['y.env']);
    other.save();
    mine.save();
    expect(mine.dirty).toBe(false);
    expect(readFileSync(join(dir, tree), 'utf8')).toBe('#landfall-left-out 2\n"build/"\n"x.env"\n"y.env"');
    const reader = new LeftOutRecords(dir);
    expect(['x.env', 'y.env', 'build/a', 'src/a.ts'].map((p) => reader.covers(tree, p))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // A track adds to a record on disk without reading it; asked before save, the answer joins the disk's.
    const later = new LeftOutRecords(dir);
    later.record(tree, ['z.env']);
    expect(['x.env', 'z.env', 'src/a.ts'].map((p) => later.covers(tree, p))).toEqual([true, true, false]);
  });

  it("a store writes its tracks' records when it closes", async () => {
    const base = tempDir('leftclose');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, '.gitignore'), '*.env\n');
    writeFileSync(join(wt, 'a.env'), 'k');
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    const t = await s.track();
    const file = join(s.gitdir, 'landfall-left-out', t);
    expect(await s.notCaptured([{ path: 'a.env', tree: t }])).toEqual(['a.env']);
    await s.close();
    expect(readFileSync(file, 'utf8')).toBe('#landfall-left-out 2\n"a.env"');
  });
});
