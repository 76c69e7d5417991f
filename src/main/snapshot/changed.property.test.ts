/**
 * `changed(from, to)` (the tree-to-tree diff the loop claims patch parts from) against two independent answers,
 * for random pairs of trees made by random file operations on a real folder (writes, rewrites with the same
 * bytes, removals, executable bit, file ↔ symlink, file ↔ folder at one name, empty folders, emptying the tree):
 *   - a direct comparison of both trees' file lists (listFiles) and bytes (readFile): a path is listed exactly when
 *     its bytes, its presence or its mode differ, with the status those imply;
 *   - native git reading the store itself (`git diff-tree -r --name-status`), when git is on PATH.
 * Prints attempts / held.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangedPath, ChangeStatus, TreeFile } from './git/tree-read';
import { SnapshotStore } from './store';
import { cleanup, hasGit, tempDir } from './test-support';

const PATHS = ['a', 'b.txt', 'a/x', 'a/y/z', 'd/one.ts', 'd/two.ts', 'd/e/f', 'x y', 'ü.txt', 'd-e'];
const CONTENTS = ['', 'one', 'two\n', 'one\r\n', '\u0000\u0001binary', 'x'.repeat(300)];

type Op =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'remove'; path: string }
  | { kind: 'exec'; path: string; on: boolean }
  | { kind: 'link'; path: string; target: string }
  | { kind: 'emptyDir'; path: string }
  | { kind: 'clear' };

const path = fc.constantFrom(...PATHS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('write'), path, content: fc.constantFrom(...CONTENTS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove'), path }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('exec'), path, on: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('link'), path, target: fc.constantFrom('one', 'b.txt', '../x') }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('emptyDir'), path }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear') }) },
) as fc.Arbitrary<Op>;

function exists(abs: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined; // a file where a folder is on the way: nothing at this path
  }
}

/** Makes the folders on the way to `rel`, removing a file or link that stands where a folder must be. */
function makeParents(root: string, rel: string): void {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const abs = join(root, ...parts.slice(0, i));
    const st = exists(abs);
    if (st && !st.isDirectory()) rmSync(abs);
    if (!st?.isDirectory()) mkdirSync(abs);
  }
}

function apply(root: string, o: Op): void {
  if (o.kind === 'clear') {
    for (const p of ['a', 'b.txt', 'd', 'x y', 'ü.txt', 'd-e']) rmSync(join(root, p), { recursive: true, force: true });
    return;
  }
  const abs = join(root, o.path);
  if (o.kind === 'remove') {
    rmSync(abs, { recursive: true, force: true });
    return;
  }
  if (o.kind === 'exec') {
    if (exists(abs)?.isFile()) chmodSync(abs, o.on ? 0o755 : 0o644);
    return;
  }
  makeParents(root, o.path);
  rmSync(abs, { recursive: true, force: true });
  if (o.kind === 'write') writeFileSync(abs, o.content);
  else if (o.kind === 'link') symlinkSync(o.target, abs);
  else mkdirSync(abs);
}

function kind(mode: string): string {
  return mode === '100755' ? '100644' : mode;
}

/** The expected answer from file lists and bytes only (no tree diff): path → status. */
async function expected(store: SnapshotStore, a: string, b: string): Promise<Map<string, ChangeStatus>> {
  const byPath = (files: TreeFile[]): Map<string, TreeFile> => new Map(files.map((f) => [f.path, f]));
  const [left, right] = [byPath(await store.listFiles(a)), byPath(await store.listFiles(b))];
  const out = new Map<string, ChangeStatus>();
  for (const p of new Set([...left.keys(), ...right.keys()])) {
    const [l, r] = [left.get(p), right.get(p)];
    if (!l) out.set(p, 'added');
    else if (!r) out.set(p, 'deleted');
    else {
      const [lb, rb] = [await store.readFile(a, p), await store.readFile(b, p)];
      const sameBytes = Buffer.from(lb as Uint8Array).equals(Buffer.from(rb as Uint8Array));
      if (kind(l.mode) !== kind(r.mode)) out.set(p, 'type-changed');
      else if (!sameBytes) out.set(p, 'modified');
      else if (l.mode !== r.mode) out.set(p, 'mode-changed');
    }
  }
  return out;
}

/** Native git's `diff-tree -r --name-status` over the store's own git dir: path → letter. */
function nativeNameStatus(gitdir: string, a: string, b: string): Map<string, string> {
  const out = execFileSync('git', [
    '--git-dir',
    gitdir,
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-status',
    a,
    b,
  ]);
  const fields = out
    .toString('utf8')
    .split('\0')
    .filter((x) => x !== '');
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) m.set(fields[i + 1] as string, fields[i] as string);
  return m;
}

const LETTER: Record<ChangeStatus, string> = {
  added: 'A',
  deleted: 'D',
  modified: 'M',
  'mode-changed': 'M',
  'type-changed': 'T',
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

describe('changed(from, to)', () => {
  it('lists exactly the paths whose bytes, presence or mode differ, with their status (files, bytes, native git)', async () => {
    const base = tempDir('changed');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt);
    const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    const git = hasGit();
    let attempts = 0;
    let held = 0;
    const statuses = new Set<ChangeStatus>();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 6 }), fc.array(op, { maxLength: 6 }), async (first, second) => {
          attempts++;
          for (const o of first) apply(wt, o);
          const a = await store.track();
          for (const o of second) apply(wt, o);
          const b = await store.track();
          const got: ChangedPath[] = await store.changed(a, b);
          const want = await expected(store, a, b);
          expect(new Map(got.map((c) => [c.path, c.status]))).toEqual(want);
          expect(got.length).toBe(want.size); // no path twice
          for (const c of got) statuses.add(c.status);
          if (git) {
            const letters = new Map(got.map((c) => [c.path, LETTER[c.status]]));
            expect(letters).toEqual(nativeNameStatus(store.gitdir, a, b));
          }
          expect(await store.changed(b, b)).toEqual([]);
          held++;
        }),
        { numRuns: 60, seed: 4242 },
      );
    } finally {
      await store.close();
    }
    console.log(
      `changed property: ${attempts} attempts / ${held} held; statuses seen: ${[...statuses].sort().join(', ')}; native git ${git ? 'compared' : 'absent'}`,
    );
    expect(statuses).toEqual(new Set(['added', 'deleted', 'modified', 'mode-changed', 'type-changed']));
  });

  it('refuses an unknown tree with not_found and a malformed hash with invalid_input', async () => {
    const base = tempDir('changed-bad');
    dirs.push(base);
    const wt = join(base, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, 'a'), 'a');
    const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data') });
    try {
      const t = await store.track();
      await expect(store.changed(t, '1'.repeat(40))).rejects.toMatchObject({ error: { code: 'not_found' } });
      await expect(store.changed('HEAD', t)).rejects.toMatchObject({ error: { code: 'invalid_input' } });
    } finally {
      await store.close();
    }
  });
});
