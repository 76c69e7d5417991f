import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { makeWorkspace, type Workspace } from './tool-test-kit';
import type { ToolOutcome } from './types';

let ws: Workspace;
beforeEach(async () => {
  ws = makeWorkspace();
  await ws.put('.gitignore', 'dist/\n*.log\n');
  await ws.put('src/a.ts', 'export const alpha = 1;\n');
  await ws.put('src/b.ts', 'export const beta = 2;\n// alpha mention\n');
  await ws.put('src/gen/.gitignore', 'out.ts\n');
  await ws.put('src/gen/out.ts', 'alpha generated\n');
  await ws.put('src/gen/keep.ts', 'keep\n');
  await ws.put('dist/bundle.js', 'alpha\n');
  await ws.put('debug.log', 'alpha\n');
  await ws.put('node_modules/pkg/index.js', 'alpha\n');
  await ws.put('legacy.txt', 'caf\xe9 alpha\n');
  await ws.put('img.bin', 'alpha\x00\x01');
  mkdirSync(path.join(ws.outer, 'OUTSIDE'));
  writeFileSync(path.join(ws.outer, 'OUTSIDE', 'secret.ts'), 'alpha outside\n');
  symlinkSync('../OUTSIDE', path.join(ws.root, 'outbox'));
});
afterEach(() => ws.cleanup());

const out = (o: ToolOutcome): string => (o.ok ? o.output : `ERR ${o.error.code}`);

describe('list', () => {
  it('shows a tree that respects .gitignore at every level, does not enter node_modules or symlinks', async () => {
    expect(out(await ws.run(listTool, {}))).toBe(
      [
        './',
        '.gitignore',
        'img.bin',
        'legacy.txt',
        'node_modules/',
        'outbox ->',
        'src/',
        '  a.ts',
        '  b.ts',
        '  gen/',
        '    .gitignore',
        '    keep.ts',
      ].join('\n'),
    );
    expect(out(await ws.run(listTool, { path: 'src/gen' }))).toBe('src/gen/\n.gitignore\nkeep.ts');
    expect(out(await ws.run(listTool, { path: '../OUTSIDE' }))).toBe('ERR outside_root');
  });
});

describe('glob', () => {
  it('matches files, newest first, minus ignored ones and never through symlinks', async () => {
    utimesSync(path.join(ws.root, 'src/a.ts'), 1000, 1000);
    utimesSync(path.join(ws.root, 'src/b.ts'), 2000, 2000);
    utimesSync(path.join(ws.root, 'src/gen/keep.ts'), 500, 500);
    expect(out(await ws.run(globTool, { pattern: '**/*.ts' }))).toBe('src/b.ts\nsrc/a.ts\nsrc/gen/keep.ts');
    expect(out(await ws.run(globTool, { pattern: '*.ts', path: 'src' }))).toBe('src/b.ts\nsrc/a.ts');
    expect(out(await ws.run(globTool, { pattern: '**/*.js' }))).toBe('No files found.');
  });

  it('a pattern that leaves the search folder (../, absolute) is invalid_input, never a crawl outside the project', async () => {
    for (const pattern of ['../**/*.ts', '/etc/*', 'src/../../**']) {
      expect(out(await ws.run(globTool, { pattern })), pattern).toBe('ERR invalid_input');
    }
  });
});

describe('grep', () => {
  it('finds lines by regex in visible text files, decoding legacy encodings, skipping binary/ignored/outside', async () => {
    expect(out(await ws.run(grepTool, { pattern: 'alpha' }))).toBe(
      [
        'legacy.txt:',
        '  1: café alpha',
        'src/a.ts:',
        '  1: export const alpha = 1;',
        'src/b.ts:',
        '  2: // alpha mention',
      ].join('\n'),
    );
    expect(out(await ws.run(grepTool, { pattern: 'ALPHA', include: '*.ts', ignoreCase: true }))).toBe(
      ['src/a.ts:', '  1: export const alpha = 1;', 'src/b.ts:', '  2: // alpha mention'].join('\n'),
    );
    expect(out(await ws.run(grepTool, { pattern: 'beta', path: 'src/b.ts' }))).toBe(
      'src/b.ts:\n  1: export const beta = 2;',
    );
    expect(out(await ws.run(grepTool, { pattern: 'nomatch' }))).toBe('No matches found.');
    expect(out(await ws.run(grepTool, { pattern: '(' }))).toBe('ERR invalid_input');
  });
});

describe('grep under a time budget', () => {
  it('a catastrophically backtracking pattern stops with a note and the matches found so far; the app is not frozen', async () => {
    await ws.put('src/a-first.ts', 'aaa match-me\n');
    await ws.put('src/z-evil.txt', `${'a'.repeat(40)}!\n`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const started = Date.now();
    const o = await ws.run(grepTool, { pattern: '^(a+)+$|match-me', path: 'src' });
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(ticks).toBeGreaterThan(10);
    expect(o.ok && o.metadata.budgetExhausted).toBe(true);
    const lines = o.ok ? o.output.split('\n') : [];
    expect(lines.slice(0, 2)).toEqual(['src/a-first.ts:', '  1: aaa match-me']);
    expect(lines[2]).toMatch(/^\(stopped after 3 s of matching: the pattern may backtrack catastrophically/);
    expect(lines).toHaveLength(3);
  });
});
