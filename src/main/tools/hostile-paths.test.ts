/**
 * The workspace boundary under a moving file system: while the permission prompt is open (the longest window
 * between resolving a path and writing it), a folder on the path is swapped for a symlink that leads out of the
 * project. The write must be refused and nothing may appear outside. Also: a FIFO is refused by read and edit
 * instead of hanging the tool call.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from './apply-patch';
import { editTool } from './edit';
import { readTool } from './read';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';
import type { PermissionAnswer } from './types';
import { writeTool } from './write';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** A permission answer that, before allowing, replaces <root>/sub by a symlink to <outer>/outside. */
function swapSubDuringAsk(): () => Promise<PermissionAnswer> {
  return async () => {
    const outside = path.join(ws.outer, 'outside');
    mkdirSync(outside, { recursive: true });
    renameSync(path.join(ws.root, 'sub'), path.join(ws.outer, 'sub-moved'));
    symlinkSync(outside, path.join(ws.root, 'sub'));
    return { allow: true };
  };
}

describe('a folder swapped for an outward symlink during the permission prompt', () => {
  it('write of a new file is refused outside_root and nothing is created outside', async () => {
    mkdirSync(path.join(ws.root, 'sub'));
    const o = await ws.run(writeTool, { filePath: 'sub/new.txt', content: 'x\n' }, { ask: swapSubDuringAsk() });
    expect(codeOf(o)).toBe('outside_root');
    expect(readdirSync(path.join(ws.outer, 'outside'))).toEqual([]);
  });

  it('edit with an empty oldString (create) is refused outside_root and nothing is created outside', async () => {
    mkdirSync(path.join(ws.root, 'sub'));
    const o = await ws.run(
      editTool,
      { filePath: 'sub/new.txt', oldString: '', newString: 'x\n' },
      { ask: swapSubDuringAsk() },
    );
    expect(codeOf(o)).toBe('outside_root');
    expect(readdirSync(path.join(ws.outer, 'outside'))).toEqual([]);
  });

  it('apply_patch Add File is refused outside_root and nothing is created outside', async () => {
    mkdirSync(path.join(ws.root, 'sub'));
    const patchText = '*** Begin Patch\n*** Add File: sub/new.txt\n+x\n*** End Patch\n';
    const o = await ws.run(applyPatchTool, { patchText }, { ask: swapSubDuringAsk() });
    expect(codeOf(o)).toBe('outside_root');
    expect(readdirSync(path.join(ws.outer, 'outside'))).toEqual([]);
    expect(existsSync(path.join(ws.outer, 'sub-moved', 'new.txt'))).toBe(false);
  });
});

describe('a FIFO inside the project', () => {
  it('read and edit refuse it at once with io_error (the call never hangs)', async () => {
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    expect(codeOf(await ws.run(readTool, { filePath: 'pipe' }))).toBe('io_error');
    expect(codeOf(await ws.run(editTool, { filePath: 'pipe', oldString: 'a', newString: 'b' }))).toBe('io_error');
  }, 5_000);

  it('apply_patch Update and Delete of a FIFO are missing_file (not a regular file)', async () => {
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    const del = await ws.run(applyPatchTool, { patchText: '*** Begin Patch\n*** Delete File: pipe\n*** End Patch\n' });
    expect(codeOf(del)).toBe('missing_file');
    expect(existsSync(path.join(ws.root, 'pipe'))).toBe(true);
  }, 5_000);
});
