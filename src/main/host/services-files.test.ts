/**
 * The editor's file layer on real temp folders: the tree follows the ignore rules; a save keeps the file's
 * encoding, BOM and line endings byte for byte; a save made on an old version is refused as `stale` with the
 * disk's text and writes nothing; a save waits while an agent tool holds the file's lock; paths outside the
 * project are refused (hostile paths: attempts / held printed).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../fs/file-lock';
import { cleanupTemp, tempDir } from '../agent/testing/fixtures';
import { attachmentText, fileTree, readProjectFile, saveProjectFile } from './services-files';

const dirs: string[] = [];
afterEach(() => cleanupTemp(...dirs.splice(0)));

function project(files: Record<string, string | Buffer>): { root: string; journal: string } {
  const root = tempDir('files');
  const journal = tempDir('journal');
  dirs.push(root, journal);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
  }
  return { root, journal };
}

describe('file view', () => {
  it('the tree lists files the ignore rules keep, sorted', async () => {
    const { root } = project({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'a',
      'src/nested/.gitignore': 'secret.txt\n',
      'src/nested/secret.txt': 's',
      'src/nested/b.ts': 'b',
      'dist/out.js': 'x',
      'debug.log': 'x',
      'node_modules/pkg/index.js': 'x',
      'README.md': 'r',
    });
    expect(await fileTree(root)).toEqual({
      files: ['.gitignore', 'README.md', 'src/a.ts', 'src/nested/.gitignore', 'src/nested/b.ts'],
      truncated: false,
    });
  });

  it('a save keeps latin-1 with CRLF, and UTF-8 with a BOM, byte for byte', async () => {
    const latin = iconv.encode('caf\u00e9 = 1\r\nna\u00efve = 2\r\n', 'latin1');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x = 1\n', 'utf8')]);
    const { root, journal } = project({ 'latin.txt': latin, 'bom.txt': bom });
    const read = await readProjectFile(root, 'latin.txt');
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.eol).toBe('crlf');
    // The editor sends LF (Monaco's model of a CRLF file can too); the file keeps CRLF and latin-1.
    const text = read.value.text.replace('= 2', '= 3').replace(/\r\n/g, '\n');
    const saved = await saveProjectFile(root, 'latin.txt', text, read.value.version, journal);
    expect(saved.ok).toBe(true);
    expect(readFileSync(path.join(root, 'latin.txt'))).toEqual(
      iconv.encode('caf\u00e9 = 1\r\nna\u00efve = 3\r\n', 'latin1'),
    );
    const b = await readProjectFile(root, 'bom.txt');
    if (!b.ok) throw new Error(b.error.message);
    await saveProjectFile(root, 'bom.txt', 'x = 2\n', b.value.version, journal);
    expect(readFileSync(path.join(root, 'bom.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x = 2\n', 'utf8')]),
    );
  });

  it('a save on an old version is stale, with the disk text, and writes nothing', async () => {
    const { root, journal } = project({ 'a.ts': 'one\n' });
    const read = await readProjectFile(root, 'a.ts');
    if (!read.ok) throw new Error(read.error.message);
    writeFileSync(path.join(root, 'a.ts'), 'agent wrote this\n');
    const r = await saveProjectFile(root, 'a.ts', 'mine\n', read.value.version, journal);
    expect(!r.ok && [r.error.code, (r.error.data as { text: string }).text]).toEqual(['stale', 'agent wrote this\n']);
    expect(readFileSync(path.join(root, 'a.ts'), 'utf8')).toBe('agent wrote this\n');
  });

  it('a save waits while a tool holds the file, then sees what the tool wrote', async () => {
    const { root, journal } = project({ 'a.ts': 'one\n' });
    const read = await readProjectFile(root, 'a.ts');
    if (!read.ok) throw new Error(read.error.message);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inLock = new Promise<void>((r) => (entered = r));
    const tool = withFileLock(path.join(root, 'a.ts'), async () => {
      entered();
      await held;
      writeFileSync(path.join(root, 'a.ts'), 'tool\n');
      order.push('tool wrote');
    });
    await inLock;
    const save = saveProjectFile(root, 'a.ts', 'mine\n', read.value.version, journal).then((r) => {
      order.push('save answered');
      return r;
    });
    await Promise.resolve();
    order.push('tool released');
    release();
    await tool;
    const r = await save;
    expect(order).toEqual(['tool released', 'tool wrote', 'save answered']);
    expect(!r.ok && r.error.code).toBe('stale');
    expect(readFileSync(path.join(root, 'a.ts'), 'utf8')).toBe('tool\n');
  });

  it('hostile paths are refused and write nothing', async () => {
    const { root, journal } = project({ 'a.ts': 'a\n' });
    const outside = tempDir('outside');
    dirs.push(outside);
    writeFileSync(path.join(outside, 'x.txt'), 'x\n');
    symlinkSync(outside, path.join(root, 'link'));
    const hostile = ['../outside.txt', path.join(outside, 'x.txt'), 'link/x.txt', 'a.ts\0.png', '../../../etc/passwd'];
    let held = 0;
    for (const p of hostile) {
      const r = await readProjectFile(root, p);
      const w = await saveProjectFile(root, p, 'owned\n', 'v', journal);
      if (!r.ok && !w.ok && ['outside_root', 'invalid_input'].includes(w.error.code)) held++;
    }
    console.log(`editor hostile paths: ${hostile.length} attempts / ${held} held`);
    expect(held).toBe(hostile.length);
    expect(readFileSync(path.join(outside, 'x.txt'), 'utf8')).toBe('x\n');
  });
});

describe('attachments', () => {
  it('a whole file and a line range become attached-file blocks; a range past the end is refused', async () => {
    const { root } = project({ 'a.ts': 'one\r\ntwo\r\nthree\r\n' });
    const r = await attachmentText(root, [{ path: 'a.ts' }, { path: 'a.ts', from: 2, to: 3 }]);
    expect(r.ok && r.value).toBe(
      '<attached-file path="a.ts">\none\r\ntwo\r\nthree\r\n\n</attached-file>\n\n<attached-file path="a.ts" lines="2-3">\ntwo\nthree\n</attached-file>',
    );
    const past = await attachmentText(root, [{ path: 'a.ts', from: 9, to: 12 }]);
    expect(!past.ok && past.error.code).toBe('invalid_input');
    const outside = await attachmentText(root, [{ path: '../x' }]);
    expect(!outside.ok && outside.error.code).toBe('outside_root');
  });
});
