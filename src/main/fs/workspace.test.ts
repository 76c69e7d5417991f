import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInRoot } from './workspace';

let outer: string;
let ws: string;

beforeEach(() => {
  outer = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-ws-')));
  ws = path.join(outer, 'ws');
  mkdirSync(path.join(outer, 'OUTSIDE'), { recursive: true });
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  writeFileSync(path.join(outer, 'OUTSIDE', 'victim.txt'), 'orig\n');
  writeFileSync(path.join(ws, 'src', 'lib.ts'), 'x\n');
});
afterEach(() => rmSync(outer, { recursive: true, force: true }));

async function code(p: string): Promise<string> {
  const r = await resolveInRoot(ws, p);
  return r.ok ? 'ok' : r.error.code;
}

describe('resolveInRoot: the workspace boundary', () => {
  it('resolves relative paths inside the root, existing or not', async () => {
    const r = await resolveInRoot(ws, 'src/lib.ts');
    expect(r).toEqual({
      ok: true,
      value: { abs: path.join(ws, 'src/lib.ts'), real: path.join(ws, 'src/lib.ts'), rel: 'src/lib.ts', exists: true },
    });
    const n = await resolveInRoot(ws, 'new/deep/file.txt');
    expect(n.ok && n.value).toEqual({
      abs: path.join(ws, 'new/deep/file.txt'),
      real: path.join(ws, 'new/deep/file.txt'),
      rel: 'new/deep/file.txt',
      exists: false,
    });
  });

  it('refuses `..` escapes and absolute paths outside as outside_root', async () => {
    expect(await code('../OUTSIDE/victim.txt')).toBe('outside_root');
    expect(await code('src/../../OUTSIDE/victim.txt')).toBe('outside_root');
    expect(await code(path.join(outer, 'OUTSIDE', 'victim.txt'))).toBe('outside_root');
    expect(await code('/etc/passwd')).toBe('outside_root');
    expect(await code(path.join(ws, 'src', 'lib.ts'))).toBe('ok');
    expect(await code('src/../src/lib.ts')).toBe('ok');
  });

  it('refuses symlinks whose real target leaves the root: folder, file, dangling, dangling ancestor, chains', async () => {
    symlinkSync('../OUTSIDE', path.join(ws, 'outbox'));
    symlinkSync('../OUTSIDE/victim.txt', path.join(ws, 'notes.md'));
    symlinkSync('../OUTSIDE/new.txt', path.join(ws, 'dangling.txt'));
    symlinkSync('../OUTSIDE/newdir', path.join(ws, 'danglingdir'));
    symlinkSync('outbox', path.join(ws, 'chain'));
    expect(await code('outbox/escaped.txt')).toBe('outside_root');
    expect(await code('notes.md')).toBe('outside_root');
    expect(await code('dangling.txt')).toBe('outside_root');
    expect(await code('danglingdir/x/y.txt')).toBe('outside_root');
    expect(await code('chain/victim.txt')).toBe('outside_root');
    const r = await resolveInRoot(ws, 'notes.md');
    expect(!r.ok && r.error.data).toMatchObject({ real: path.join(outer, 'OUTSIDE', 'victim.txt') });
  });

  it('`outbox/../x` is the lexical <root>/x, never the parent of the link target', async () => {
    symlinkSync('../OUTSIDE', path.join(ws, 'outbox'));
    const r = await resolveInRoot(ws, 'outbox/../OUTSIDE/victim.txt');
    expect(r.ok && r.value).toEqual({
      abs: path.join(ws, 'OUTSIDE/victim.txt'),
      real: path.join(ws, 'OUTSIDE/victim.txt'),
      rel: 'OUTSIDE/victim.txt',
      exists: false,
    });
  });

  it('follows symlinks that stay inside: the real path is the target', async () => {
    symlinkSync('src/lib.ts', path.join(ws, 'alias.ts'));
    symlinkSync('src/missing.ts', path.join(ws, 'later.ts'));
    const r = await resolveInRoot(ws, 'alias.ts');
    expect(r.ok && r.value).toEqual({
      abs: path.join(ws, 'alias.ts'),
      real: path.join(ws, 'src/lib.ts'),
      rel: 'src/lib.ts',
      exists: true,
    });
    const d = await resolveInRoot(ws, 'later.ts');
    expect(d.ok && d.value).toMatchObject({
      real: path.join(ws, 'src/missing.ts'),
      rel: 'src/missing.ts',
      exists: false,
    });
  });

  it('symlink loops and bad input are refused, not thrown', async () => {
    symlinkSync('loop2', path.join(ws, 'loop1'));
    symlinkSync('loop1', path.join(ws, 'loop2'));
    expect(await code('loop1')).toBe('outside_root');
    expect(await code('')).toBe('invalid_input');
    expect(await code('a\0b')).toBe('invalid_input');
  });

  it('accepts a root given through a symlink', async () => {
    symlinkSync(ws, path.join(outer, 'wslink'));
    const r = await resolveInRoot(path.join(outer, 'wslink'), 'src/lib.ts');
    expect(r.ok && r.value.real).toBe(path.join(ws, 'src/lib.ts'));
  });
});

describe('resolveInRoot: paths the file system cannot resolve are not called outside_root', () => {
  it('a name longer than the file system allows is invalid_input; a symlink loop stays outside_root', async () => {
    expect(await code(`src/${'n'.repeat(300)}.ts`)).toBe('invalid_input');
    symlinkSync('loop-b', path.join(ws, 'loop-a'));
    symlinkSync('loop-a', path.join(ws, 'loop-b'));
    expect(await code('loop-a/x.ts')).toBe('outside_root');
  });
});
