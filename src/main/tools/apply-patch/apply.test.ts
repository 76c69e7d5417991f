/**
 * applyPatch on real temp folders: all-or-nothing across files (failure injection), the public bug reproductions
 * fixtures/bugs/README.md B25 and B26, observed versions, encodings, moves, and the workspace boundary.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ObservedVersions, readTextFile } from '../../fs';
import type { ToolContext } from '../types';
import type { TxHook } from '../../fs/transaction';
import { applyPatch } from './index';
import { listTree, makeTemp, removeTemp, treeObject, writeTree } from './test-support/tree';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map(removeTemp));
});

async function rootWith(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await makeTemp();
  temps.push(root);
  await writeTree(root, files);
  return root;
}

const patch = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

const FOUR_FILES = patch(
  '*** Update File: one.txt',
  '@@',
  '-1',
  '+ONE',
  '*** Update File: two.txt',
  '@@',
  '-2',
  '+TWO',
  '*** Update File: three.txt',
  '@@',
  '-3',
  '+THREE',
  '*** Delete File: four.txt',
);
const FOUR_INPUT = { 'one.txt': '1\n', 'two.txt': '2\n', 'three.txt': '3\n', 'four.txt': '4\n' };

describe('all or nothing across files', () => {
  it('an injected fault at the third write (rename over the target, after two landed) leaves all four files byte-identical', async () => {
    const root = await rootWith(FOUR_INPUT);
    const before = await listTree(root);
    let renames = 0;
    const hook: TxHook = (op) => {
      if (op === 'rename' && ++renames === 3) throw Object.assign(new Error('injected fault'), { code: 'EIO' });
    };
    const r = await applyPatch(FOUR_FILES, { root, hook });
    expect(!r.ok && r.error.code).toBe('io_error');
    expect(!r.ok && r.error.data).toMatchObject({ failed: 'three.txt', errno: 'EIO', notRestored: [] });
    expect(renames).toBe(3); // two landed, then the failing one; the rollback put the two back
    expect(await listTree(root)).toEqual(before); // no temp file left either
  });

  it('an injected fault while staging the third file leaves all four files byte-identical', async () => {
    const root = await rootWith(FOUR_INPUT);
    const before = await listTree(root);
    const hook: TxHook = (op, rel) => {
      if (op === 'stage' && rel === 'three.txt') throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
    };
    const r = await applyPatch(FOUR_FILES, { root, hook });
    expect(!r.ok && r.error.data).toMatchObject({ failed: 'three.txt', errno: 'ENOSPC' });
    expect(await listTree(root)).toEqual(before);
  });

  it('a real fault (a file where the third target needs a folder) leaves all four files byte-identical', async () => {
    const root = await rootWith({ ...FOUR_INPUT, blocker: 'not a folder\n' });
    const before = await listTree(root);
    const text = patch(
      '*** Update File: one.txt',
      '@@',
      '-1',
      '+ONE',
      '*** Add File: new/deep/two.txt',
      '+TWO',
      '*** Add File: blocker/three.txt',
      '+THREE',
      '*** Delete File: four.txt',
    );
    const r = await applyPatch(text, { root });
    expect(!r.ok && r.error.code).toBe('io_error');
    expect(!r.ok && r.error.data?.failed).toBe('blocker/three.txt');
    expect(await listTree(root)).toEqual(before);
    await expect(fsp.stat(path.join(root, 'new'))).rejects.toThrow(); // folders created for the patch are gone too
  });

  it('a failing delete restores the files already written', async () => {
    const root = await rootWith(FOUR_INPUT);
    const before = await listTree(root);
    const hook: TxHook = (op) => {
      if (op === 'remove') throw Object.assign(new Error('busy'), { code: 'EBUSY' });
    };
    const r = await applyPatch(FOUR_FILES, { root, hook });
    expect(!r.ok && r.error.code).toBe('io_error');
    expect(await listTree(root)).toEqual(before);
  });

  it('success lands every file and reports A/M/D lines and the commit diffs', async () => {
    const root = await rootWith({ 'a.txt': 'x\n', 'gone.txt': 'bye\n', 'm/src.txt': 'keep\nold\n' });
    const text = patch(
      '*** Add File: n/new.txt',
      '+hi',
      '*** Update File: a.txt',
      '@@',
      '-x',
      '+y',
      '*** Delete File: gone.txt',
      '*** Update File: m/src.txt',
      '*** Move to: m/dst.txt',
      '@@',
      ' keep',
      '-old',
      '+new',
    );
    const r = await applyPatch(text, { root });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.summary).toBe(
      'Success. Updated the following files:\nA n/new.txt\nM a.txt\nD gone.txt\nM m/dst.txt (moved from m/src.txt)',
    );
    expect(r.value.files.map((f) => [f.kind, f.path, f.change.additions, f.change.deletions])).toEqual([
      ['add', 'n/new.txt', 1, 0],
      ['update', 'a.txt', 1, 1],
      ['delete', 'gone.txt', 0, 1],
      ['move', 'm/src.txt', 1, 1],
    ]);
    expect(r.value.files[1]?.change.patch).toContain('-x\n+y');
    expect(r.value.landed.sort()).toEqual(['a.txt', 'gone.txt', 'm/dst.txt', 'm/src.txt', 'n/new.txt']);
    expect(treeObject(await listTree(root))).toEqual({
      'a.txt': 'y\n',
      'm/dst.txt': 'keep\nnew\n',
      'n/new.txt': 'hi\n',
    });
  });
});

describe('public bug reproductions', () => {
  it('B25: a second hunk that does not match rejects the whole patch, naming hunk 2 and the missing line', async () => {
    const app = 'import a from "a"\nimport b from "b"\n\nexport function run() {\n  a()\n  b()\n}\n';
    const root = await rootWith({ 'app.ts': app });
    const text = patch(
      '*** Update File: app.ts',
      '@@',
      ' import a from "a"',
      '-import b from "b"',
      '+import b from "bee"',
      '@@',
      ' export function run() {',
      '-  a()',
      '-  c()',
      '+  a(1)',
      '+  c(2)',
      ' }',
    );
    const r = await applyPatch(text, { root });
    expect(!r.ok && r.error.code).toBe('no_match');
    expect(!r.ok && r.error.message).toContain('hunk 2 of app.ts');
    expect(!r.ok && r.error.message).toContain('"  c()"');
    expect(await fsp.readFile(path.join(root, 'app.ts'), 'utf8')).toBe(app);
  });

  it('B26: a valid update plus a delete of a missing file fails naming gone.txt; keep.txt unchanged', async () => {
    const root = await rootWith({ 'keep.txt': 'v1\n' });
    const r = await applyPatch(patch('*** Update File: keep.txt', '@@', '-v1', '+v2', '*** Delete File: gone.txt'), {
      root,
    });
    expect(!r.ok && r.error.code).toBe('missing_file');
    expect(!r.ok && r.error.message).toContain('gone.txt');
    expect(await fsp.readFile(path.join(root, 'keep.txt'), 'utf8')).toBe('v1\n');
  });

  it('B26 variant: the second write fails after keep.txt was written; keep.txt is rolled back', async () => {
    const root = await rootWith({ 'keep.txt': 'v1\n', 'keep2.txt': 'w1\n' });
    const hook: TxHook = (op, rel) => {
      if (op === 'rename' && rel === 'keep2.txt') throw Object.assign(new Error('read-only'), { code: 'EACCES' });
    };
    const r = await applyPatch(
      patch('*** Update File: keep.txt', '@@', '-v1', '+v2', '*** Update File: keep2.txt', '@@', '-w1', '+w2'),
      { root, hook },
    );
    expect(!r.ok && r.error.code).toBe('io_error');
    expect(treeObject(await listTree(root))).toEqual({ 'keep.txt': 'v1\n', 'keep2.txt': 'w1\n' });
  });
});

describe('observed versions (with a tool context)', () => {
  async function session(root: string): Promise<ToolContext> {
    return { root, sessionId: 's1', observed: new ObservedVersions() };
  }

  async function read(ctx: ToolContext, rel: string): Promise<void> {
    const real = path.join(ctx.root, rel);
    const f = await readTextFile(real);
    if (!f.ok) throw new Error(f.error.message);
    ctx.observed.record(ctx.sessionId, real, f.value.stamp);
  }

  it('an update of a file the session never read is not_observed; an Add needs no read', async () => {
    const root = await rootWith({ 'a.txt': '1\n' });
    const ctx = await session(root);
    const r = await applyPatch(patch('*** Update File: a.txt', '@@', '-1', '+2'), { root, ctx });
    expect(!r.ok && r.error.code).toBe('not_observed');
    const added = await applyPatch(patch('*** Add File: b.txt', '+new'), { root, ctx });
    expect(added.ok).toBe(true);
    const again = await applyPatch(patch('*** Update File: b.txt', '@@', '-new', '+newer'), { root, ctx });
    expect(again.ok).toBe(true);
    expect(await fsp.readFile(path.join(root, 'b.txt'), 'utf8')).toBe('newer\n');
  });

  it('a file changed on disk since the session read it is stale, checked before matching', async () => {
    const root = await rootWith({ 'a.txt': '1\n' });
    const ctx = await session(root);
    await read(ctx, 'a.txt');
    await fsp.writeFile(path.join(root, 'a.txt'), 'changed by the user\n');
    const r = await applyPatch(patch('*** Update File: a.txt', '@@', '-1', '+2'), { root, ctx });
    expect(!r.ok && r.error.code).toBe('stale');
    expect(await fsp.readFile(path.join(root, 'a.txt'), 'utf8')).toBe('changed by the user\n');
  });

  it('after a patch the session may patch the same file again; a deleted file is forgotten', async () => {
    const root = await rootWith({ 'a.txt': '1\n', 'd.txt': 'x\n' });
    const ctx = await session(root);
    await read(ctx, 'a.txt');
    await read(ctx, 'd.txt');
    expect(
      (await applyPatch(patch('*** Update File: a.txt', '@@', '-1', '+2', '*** Delete File: d.txt'), { root, ctx })).ok,
    ).toBe(true);
    expect((await applyPatch(patch('*** Update File: a.txt', '@@', '-2', '+3'), { root, ctx })).ok).toBe(true);
    expect(ctx.observed.get('s1', path.join(root, 'd.txt'))).toBeUndefined();
  });
});

describe('bytes, encodings and the boundary', () => {
  it('a UTF-16 LE file with BOM is patched in its own encoding', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nworld\r\n', 'utf16le')]);
    const root = await rootWith({ 'w.txt': bytes });
    const r = await applyPatch(patch('*** Update File: w.txt', '@@', ' héllo', '-world', '+wörld'), { root });
    expect(r.ok).toBe(true);
    expect(await fsp.readFile(path.join(root, 'w.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]),
    );
  });

  it('a file mode is kept, and a move keeps the source mode', async () => {
    const root = await rootWith({ 'run.sh': 'echo 1\n', 'mv.sh': 'echo m\n' });
    await fsp.chmod(path.join(root, 'run.sh'), 0o755);
    await fsp.chmod(path.join(root, 'mv.sh'), 0o750);
    const r = await applyPatch(
      patch('*** Update File: run.sh', '@@', '-echo 1', '+echo 2', '*** Update File: mv.sh', '*** Move to: bin/mv.sh'),
      { root },
    );
    expect(r.ok).toBe(true);
    expect((await fsp.stat(path.join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await fsp.stat(path.join(root, 'bin/mv.sh'))).mode & 0o777).toBe(0o750);
  });

  it('a symlink leading outside the root is outside_root, and nothing outside is created', async () => {
    const outside = await makeTemp('landfall-outside-');
    temps.push(outside);
    const root = await rootWith({ 'a.txt': 'a\n' });
    await fsp.symlink(outside, path.join(root, 'outbox'));
    const r = await applyPatch(patch('*** Add File: outbox/p.txt', '+x'), { root });
    expect(!r.ok && r.error.code).toBe('outside_root');
    expect(await fsp.readdir(outside)).toEqual([]);
  });

  it('two spellings of one real file (a symlink alias) in one patch are refused', async () => {
    const root = await rootWith({ 'src/lib.ts': 'x\n' });
    await fsp.symlink(path.join(root, 'src/lib.ts'), path.join(root, 'alias.ts'));
    const r = await applyPatch(
      patch('*** Update File: src/lib.ts', '@@', '-x', '+y', '*** Update File: alias.ts', '@@', '-x', '+z'),
      { root },
    );
    expect(!r.ok && r.error.code).toBe('parse');
    expect(await fsp.readFile(path.join(root, 'src/lib.ts'), 'utf8')).toBe('x\n');
  });

  it('deleting a symlink removes the link, not the file it points to; a failed patch recreates the link', async () => {
    const root = await rootWith({ 'src/lib.ts': 'x\n', 'b.txt': 'b\n' });
    await fsp.symlink('src/lib.ts', path.join(root, 'alias.ts'));
    const failOnB: TxHook = (op, rel) => {
      if (op === 'remove' && rel === 'b.txt') throw Object.assign(new Error('busy'), { code: 'EBUSY' });
    };
    const refused = await applyPatch(patch('*** Delete File: alias.ts', '*** Delete File: b.txt'), {
      root,
      hook: failOnB,
    });
    expect(!refused.ok && refused.error.data).toMatchObject({ failed: 'b.txt', notRestored: [] });
    expect(await fsp.readlink(path.join(root, 'alias.ts'))).toBe('src/lib.ts'); // the removed link was recreated
    const r = await applyPatch(patch('*** Delete File: alias.ts', '*** Update File: b.txt', '@@', '-b', '+B'), {
      root,
    });
    expect(r.ok && r.value.summary).toBe('Success. Updated the following files:\nD alias.ts\nM b.txt');
    await expect(fsp.lstat(path.join(root, 'alias.ts'))).rejects.toThrow();
    expect(treeObject(await listTree(root))).toEqual({ 'b.txt': 'B\n', 'src/lib.ts': 'x\n' });
  });

  it('a binary source is refused as binary, nothing written', async () => {
    const root = await rootWith({ 'b.bin': Buffer.from([0, 1, 2, 10]) });
    const r = await applyPatch(patch('*** Update File: b.bin', '@@', '+x'), { root });
    expect(!r.ok && r.error.code).toBe('binary');
  });

  it("approve sees every file's diff and can refuse; nothing is written then", async () => {
    const root = await rootWith({ 'a.txt': '1\n' });
    const seen: string[] = [];
    const r = await applyPatch(patch('*** Update File: a.txt', '@@', '-1', '+2', '*** Add File: b.txt', '+b'), {
      root,
      approve: async (files) => {
        seen.push(...files.map((f) => f.change.file));
        return { ok: false, error: { code: 'permission_denied', message: 'no', hint: 'ask the user' } };
      },
    });
    expect(!r.ok && r.error.code).toBe('permission_denied');
    expect(seen).toEqual(['a.txt', 'b.txt']);
    expect(treeObject(await listTree(root))).toEqual({ 'a.txt': '1\n' });
  });
});

describe('the success report tells the truth', () => {
  it('a file whose hunks change nothing is reported as unchanged, not as M, and is not in landed', async () => {
    const root = await rootWith({ 'a.txt': 'x\ny\n', 'b.txt': 'p\n' });
    const r = await applyPatch(
      patch('*** Update File: a.txt', '@@', '-x', '+x', '*** Update File: b.txt', '@@', '-p', '+P'),
      { root },
    );
    expect(r.ok && r.value.summary).toBe(
      'Success. Updated the following files:\n= a.txt (unchanged: the patch leaves its bytes as they were)\nM b.txt',
    );
    expect(r.ok && r.value.landed).toEqual(['b.txt']);
    expect(treeObject(await listTree(root))).toEqual({ 'a.txt': 'x\ny\n', 'b.txt': 'P\n' });
  });
});

describe('ownership', () => {
  it.runIf(process.getuid?.() === 0)('an updated file keeps its owner and group', async () => {
    const root = await rootWith({ 'a.txt': 'x\n' });
    await fsp.chown(path.join(root, 'a.txt'), 4321, 4322);
    const r = await applyPatch(patch('*** Update File: a.txt', '@@', '-x', '+y'), { root });
    expect(r.ok).toBe(true);
    const st = await fsp.stat(path.join(root, 'a.txt'));
    expect([st.uid, st.gid]).toEqual([4321, 4322]);
  });
});
