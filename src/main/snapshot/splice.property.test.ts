/**
 * Property test of spliced folders (walk.ts `splicedDir`): a guided track takes a folder above the changed paths
 * from its last tree and walks only the subfolders on the way. Here every change is deep (three and four folders
 * down, under folders holding a `.gitignore` and ignored files of their own), so most folders on the way are
 * spliced: random writes, deletes, renames, chmods, empty and emptied folders, ignored files made deep below a
 * spliced `.gitignore`. A second store that always walks the whole tree is the truth: every track's tree equals its
 * tree, and the same paths count as not captured (left out: a revert may not remove them).
 */
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { cleanup, tempDir } from './test-support';

/** Files the steps touch: deep ones, and ignored ones (by p/.gitignore `*.log`, by the root's `w.log`). */
const DEEP = [
  'p/q/r/f1',
  'p/q/r/f2',
  'p/q/r/x.log',
  'p/q/r/s/t',
  'p/q/r/s/u.log',
  'p/q/v/f3',
  'm/n/o/z',
  'm/n/o/w.log',
  'm/n/o/e/f4',
  'm/n/y',
];
/** Present from the start and never touched: left-out files and rules in folders that get spliced. */
const STILL = ['p/.gitignore', 'p/q/g.log', 'p/k.txt', 'm/n/w.log', 'm/k.txt', '.gitignore'];
const FOLDERS = ['p/q/r', 'p/q/r/s', 'm/n/o', 'm/n/o/e', 'p/q/v'];

type Op =
  | { k: 'write'; p: string; data: string }
  | { k: 'delete'; p: string }
  | { k: 'rename'; p: string; q: string }
  | { k: 'chmod'; p: string }
  | { k: 'mkdir'; p: string };

const deep = fc.constantFrom(...DEEP);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('write' as const), p: deep, data: fc.string({ maxLength: 8 }) }), weight: 5 },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), p: fc.constantFrom(...DEEP, ...FOLDERS) }), weight: 2 },
  fc.record({ k: fc.constant('rename' as const), p: deep, q: deep }),
  fc.record({ k: fc.constant('chmod' as const), p: deep }),
  fc.record({ k: fc.constant('mkdir' as const), p: fc.constantFrom(...FOLDERS) }),
);

function isFile(abs: string): boolean {
  try {
    return lstatSync(abs).isFile();
  } catch {
    return false;
  }
}

function apply(root: string, o: Op): void {
  const abs = join(root, o.p);
  if (o.k === 'write') {
    mkdirSync(dirname(abs), { recursive: true });
    if (!isFile(abs)) rmSync(abs, { recursive: true, force: true });
    writeFileSync(abs, o.data);
  } else if (o.k === 'delete') rmSync(abs, { recursive: true, force: true });
  else if (o.k === 'mkdir') {
    if (!isFile(abs)) mkdirSync(abs, { recursive: true });
  } else if (o.k === 'chmod') {
    if (isFile(abs)) chmodSync(abs, lstatSync(abs).mode & 0o100 ? 0o644 : 0o755);
  } else if (o.p !== o.q && isFile(abs)) {
    const to = join(root, o.q);
    mkdirSync(dirname(to), { recursive: true });
    if (!isFile(to)) rmSync(to, { recursive: true, force: true });
    renameSync(abs, to);
  }
}

describe('property: spliced folders (deep changes) equal a full walk', () => {
  it('tree and left-out paths after every guided track', async () => {
    let run = 0;
    const counts = { tracks: 0, guided: 0, spliced: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        async (steps) => {
          const base = tempDir(`splice${run++}`);
          const wt = join(base, 'wt');
          for (const p of [...DEEP.filter((_, i) => i % 2 === 0), ...STILL]) {
            mkdirSync(dirname(join(wt, p)), { recursive: true });
            writeFileSync(join(wt, p), p);
          }
          writeFileSync(join(wt, 'p/.gitignore'), '*.log\n');
          writeFileSync(join(wt, '.gitignore'), 'w.log\n');
          const watched = await SnapshotStore.open({
            worktree: wt,
            dataDir: join(base, 'w'),
            watch: true,
            watchBackend: 'native',
            ignoreDefaults: [],
          });
          const truth = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 't'), ignoreDefaults: [] });
          const paths = [...DEEP, ...STILL];
          try {
            expect(await watched.track({ verify: true })).toBe(await truth.track());
            for (const ops of steps) {
              for (const o of ops) apply(wt, o);
              const got = await watched.track();
              counts.tracks++;
              if (watched.lastTrackKind === 'guided') counts.guided++;
              counts.spliced += watched.lastSpliced;
              expect(got).toBe(await truth.track());
              const items = paths.map((p) => ({ path: p, tree: got }));
              expect(await watched.notCaptured(items)).toEqual(await truth.notCaptured(items));
            }
          } finally {
            await watched.close();
            await truth.close();
            cleanup(base);
          }
        },
      ),
      { numRuns: 25 },
    );
    console.log(`splice property: ${JSON.stringify(counts)}`);
    // The spliced path must carry the test: most steps are guided, and they splice folders.
    expect(counts.guided, JSON.stringify(counts)).toBeGreaterThan(counts.tracks / 2);
    expect(counts.spliced, JSON.stringify(counts)).toBeGreaterThan(counts.guided);
  }, 300_000);
});
