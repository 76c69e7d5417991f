/**
 * `file_not_found` hints (path-hints.ts) on real temp folders: every tool that takes a path names the existing
 * paths nearest to a missing one — same path in another case, the same name elsewhere, a similar name in the
 * folder — root-relative, never a file a read rule hides, never anything outside the root, ignored files left out.
 * Each expectation is the exact hint the model reads.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { revealGuard } from '../agent/permission/reveal-policy';
import { applyPatchTool } from './apply-patch';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { multieditTool } from './multiedit';
import { nearbyPaths, MAX_HINTS } from './path-hints';
import { readTool } from './read';
import { makeWorkspace, type Workspace } from './tool-test-kit';
import type { ToolOutcome } from './types';

let ws: Workspace;

beforeEach(async () => {
  ws = makeWorkspace();
  await ws.put('src/greet.js', 'export const greet = 1;\n');
  await ws.put('src/cli.js', 'cli\n');
  await ws.put('src/Config.ts', 'config\n');
  await ws.put('lib/util/format.ts', 'fmt\n');
  await ws.put('test/format.ts', 'test\n');
  await ws.put('docs/guide.md', 'guide\n');
});

afterEach(async () => {
  await ws.cleanup();
});

/** The error code and hint of a refused call. */
function refusal(o: ToolOutcome): { code: string; hint: string; nearby: unknown } {
  if (o.ok) throw new Error(`expected a refusal, got: ${o.output}`);
  return { code: o.error.code, hint: o.error.hint, nearby: o.error.data?.nearby };
}

describe('hints of each tool', () => {
  it('read: a similar name in the folder (another extension, a typo)', async () => {
    expect(refusal(await ws.run(readTool, { filePath: 'src/greet.ts' }))).toEqual({
      code: 'file_not_found',
      hint: 'Did you mean: src/greet.js? Check the path with list or glob.',
      nearby: ['src/greet.js'],
    });
    expect(refusal(await ws.run(readTool, { filePath: 'src/gret.js' })).hint).toBe(
      'Did you mean: src/greet.js? Check the path with list or glob.',
    );
  });

  it('read: the same path in another case comes first', async () => {
    expect(refusal(await ws.run(readTool, { filePath: 'SRC/config.ts' })).hint).toBe(
      'Did you mean: src/Config.ts? Check the path with list or glob.',
    );
  });

  it('edit: the same name in other folders, the nearest folder first', async () => {
    const o = await ws.run(editTool, { filePath: 'lib/format.ts', oldString: 'a', newString: 'b' });
    expect(refusal(o).hint).toBe(
      'Did you mean: lib/util/format.ts, test/format.ts? Check the path with glob; to create a new file use write, or edit with an empty oldString.',
    );
  });

  it('edit: a wrong folder for a file that exists elsewhere', async () => {
    const o = await ws.run(editTool, { filePath: 'scr/greet.js', oldString: 'a', newString: 'b' });
    expect(refusal(o).nearby).toEqual(['src/greet.js']);
  });

  it('multiedit', async () => {
    const o = await ws.run(multieditTool, { filePath: 'src/cli.ts', edits: [{ oldString: 'a', newString: 'b' }] });
    expect(refusal(o)).toEqual({
      code: 'file_not_found',
      hint: 'Did you mean: src/cli.js? Check the path, or create it with write first.',
      nearby: ['src/cli.js'],
    });
  });

  it('apply_patch: an Update of a missing file', async () => {
    const patchText = '*** Begin Patch\n*** Update File: src/Greet.js\n@@\n-a\n+b\n*** End Patch';
    const o = await ws.run(applyPatchTool, { patchText });
    expect(refusal(o)).toEqual({
      code: 'missing_file',
      hint: 'Did you mean: src/greet.js? Check the path (list or glob), or use "*** Add File: src/Greet.js" to create it.',
      nearby: ['src/greet.js'],
    });
  });

  it('list, grep and glob: folders', async () => {
    expect(refusal(await ws.run(listTool, { path: 'libs' })).hint).toBe(
      'Did you mean: lib? Check the path, or list the project root.',
    );
    expect(refusal(await ws.run(grepTool, { pattern: 'x', path: 'doc' })).hint).toBe(
      'Did you mean: docs? Check the path with list.',
    );
    expect(refusal(await ws.run(globTool, { pattern: '*.ts', path: 'lib/utils' })).hint).toBe(
      'Did you mean: lib/util? Check the path with list, or leave it out.',
    );
  });

  it('no hint when nothing is near: the advice alone', async () => {
    expect(refusal(await ws.run(readTool, { filePath: 'zzz/qqqqqq.rs' }))).toEqual({
      code: 'file_not_found',
      hint: 'Check the path with list or glob.',
      nearby: [],
    });
  });
});

describe('what a hint never names', () => {
  it('a file a read rule denies, or one an unanswered ask rule covers', async () => {
    await ws.put('config/.env', 'SECRET=1\n');
    await ws.put('deploy/.env', 'SECRET=2\n');
    await ws.put('keys/.env', 'SECRET=3\n');
    const reveal = revealGuard(
      [
        { permission: 'read', pattern: 'config/**', action: 'deny' },
        { permission: 'read', pattern: 'keys/**', action: 'ask' },
      ],
      [],
      ws.root,
    );
    const o = await ws.run(readTool, { filePath: '.env' }, { reveal });
    expect(refusal(o).nearby).toEqual(['deploy/.env']);
    expect(JSON.stringify(o)).not.toContain('config/.env');
    expect(JSON.stringify(o)).not.toContain('keys/.env');
  });

  it('anything outside the root: a symlinked folder is never walked', async () => {
    mkdirSync(path.join(ws.outer, 'OUTSIDE'));
    writeFileSync(path.join(ws.outer, 'OUTSIDE', 'secret.txt'), 'outside\n');
    symlinkSync('../OUTSIDE', path.join(ws.root, 'outbox'));
    await ws.put('config/.env', 'SECRET=1\n');
    const reveal = revealGuard([{ permission: 'read', pattern: 'config/**', action: 'deny' }], [], ws.root);
    const attempts: [string, 'file' | 'folder'][] = [
      ['secret.txt', 'file'],
      ['SECRET.TXT', 'file'],
      ['outbox/secret.text', 'file'],
      ['../OUTSIDE/secret.txt', 'file'],
      ['..', 'folder'],
      [path.join(ws.outer, 'OUTSIDE', 'secre.txt'), 'file'],
      ['OUTSIDE', 'folder'],
      ['.env', 'file'],
      ['config/.envv', 'file'],
      ['Config/.env', 'file'],
      ['confi', 'folder'],
    ];
    let held = 0;
    for (const [wanted, kind] of attempts) {
      const hints = await nearbyPaths({ ...ws.ctx, reveal }, wanted, kind);
      if (hints.every((h) => !h.includes('OUTSIDE') && !h.includes('secret') && !h.startsWith('config/'))) held++;
    }
    const tools = [
      await ws.run(readTool, { filePath: 'secret.txt' }, { reveal }),
      await ws.run(readTool, { filePath: 'config/.envv' }, { reveal }),
      await ws.run(editTool, { filePath: 'Config/.env', oldString: 'a', newString: 'b' }, { reveal }),
      await ws.run(listTool, { path: 'outbox/x' }, { reveal }),
    ];
    // the message repeats the path asked for; what the hint and `nearby` add must name none of them
    for (const o of tools) {
      const { hint, nearby } = refusal(o);
      if (!/OUTSIDE|secret|config\//.test(`${hint} ${JSON.stringify(nearby)}`)) held++;
    }
    console.log(
      `path hints, outside the root or hidden by a read rule: ${attempts.length + tools.length} attempts / ${held} held`,
    );
    expect(held).toBe(attempts.length + tools.length);
  });

  it('ignored files (.gitignore) and dependency folders', async () => {
    await ws.put('.gitignore', 'dist/\n');
    await ws.put('dist/greet.js', 'built\n');
    await ws.put('node_modules/pkg/greet.js', 'dep\n');
    expect(await nearbyPaths(ws.ctx, 'greet.js', 'file')).toEqual(['src/greet.js']);
  });

  it(`at most ${MAX_HINTS} paths, in a stable order`, async () => {
    for (const d of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await ws.put(`${d}/index.ts`, 'x\n');
    expect(await nearbyPaths(ws.ctx, 'index.ts', 'file')).toEqual([
      'a/index.ts',
      'b/index.ts',
      'c/index.ts',
      'd/index.ts',
      'e/index.ts',
    ]);
  });
});
