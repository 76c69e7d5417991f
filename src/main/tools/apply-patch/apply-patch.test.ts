/**
 * The apply_patch tool on a real temp workspace: observed versions, the permission preview, diagnostics after
 * the write (fixtures/bugs/README.md B43's shape), and the report the model reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from './apply-patch';
import { readTool } from '../read';
import { makeWorkspace, type Workspace } from '../tool-test-kit';
import type { DiagnosticsHook } from '../../lsp/hook';
import type { PermissionRequest } from '../types';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const patch = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('apply_patch tool', () => {
  it('refuses to update a file the session never read (not_observed) and says nothing changed', async () => {
    await ws.put('a.txt', '1\n');
    const out = await ws.run(applyPatchTool, { patchText: patch('*** Update File: a.txt', '@@', '-1', '+2') });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.code).toBe('not_observed');
    expect(out.output).toContain('No file was changed.');
    expect(await ws.raw('a.txt')).toBe('1\n');
  });

  it('after a read, lands the patch and reports A/M/D lines', async () => {
    await ws.put('a.txt', '1\n');
    await ws.put('old.txt', 'x\n');
    await ws.run(readTool, { filePath: 'a.txt' });
    await ws.run(readTool, { filePath: 'old.txt' });
    const out = await ws.run(applyPatchTool, {
      patchText: patch(
        '*** Update File: a.txt',
        '@@',
        '-1',
        '+2',
        '*** Add File: n.txt',
        '+n',
        '*** Delete File: old.txt',
      ),
    });
    expect(out.ok && out.output).toBe('Success. Updated the following files:\nM a.txt\nA n.txt\nD old.txt');
    expect(out.ok && out.metadata.landed).toEqual(['a.txt', 'n.txt', 'old.txt']);
    expect(await ws.raw('a.txt')).toBe('2\n');
    expect(await ws.raw('n.txt')).toBe('n\n');
  });

  it("asks once with every file's diff; a refusal writes nothing", async () => {
    await ws.put('a.txt', '1\n');
    await ws.run(readTool, { filePath: 'a.txt' });
    const asked: PermissionRequest[] = [];
    const out = await ws.run(
      applyPatchTool,
      {
        patchText: patch(
          '*** Update File: a.txt',
          '*** Move to: b/a.txt',
          '@@',
          '-1',
          '+2',
          '*** Add File: c.txt',
          '+c',
        ),
      },
      {
        ask: async (req) => {
          asked.push(req);
          return { allow: false, reason: 'not now' };
        },
      },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.patterns).toEqual(['a.txt', 'b/a.txt', 'c.txt']);
    expect(asked[0]?.preview?.map((c) => [c.file, c.additions, c.deletions])).toEqual([
      ['b/a.txt', 1, 1],
      ['c.txt', 1, 0],
    ]);
    expect(!out.ok && out.error.code).toBe('permission_denied');
    expect(!out.ok && out.output).toContain('not now');
    expect(await ws.raw('a.txt')).toBe('1\n');
  });

  it('asks the language servers about every written file and appends their errors', async () => {
    await ws.put('e.ts', 'export const a: number = 1;\n');
    await ws.run(readTool, { filePath: 'e.ts' });
    const calls: string[][] = [];
    const diagnostics: DiagnosticsHook = {
      touch: () => undefined,
      afterWrite: async (paths) => {
        calls.push(paths.map((p) => p.slice(ws.root.length + 1)).sort());
        return { text: 'e.ts:2:14 error TS2322', diagnostics: {} };
      },
    };
    const out = await ws.run(
      applyPatchTool,
      {
        patchText: patch(
          '*** Update File: e.ts',
          '@@',
          ' export const a: number = 1;',
          '+export const b: boolean = 123;',
          '*** Add File: n.ts',
          '+export const c: string = 5;',
        ),
      },
      { diagnostics },
    );
    expect(calls).toEqual([['e.ts', 'n.ts']]);
    expect(out.ok && out.output).toBe(
      'Success. Updated the following files:\nM e.ts\nA n.ts\n\ne.ts:2:14 error TS2322',
    );
  });

  it('an Add onto an existing file is refused as exists', async () => {
    await ws.put('a.txt', 'mine\n');
    const out = await ws.run(applyPatchTool, { patchText: patch('*** Add File: a.txt', '+theirs') });
    expect(!out.ok && out.error.code).toBe('exists');
    expect(await ws.raw('a.txt')).toBe('mine\n');
  });
});
