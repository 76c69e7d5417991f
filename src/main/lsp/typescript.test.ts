/**
 * TypeScript through the real tools (read, edit, write, apply_patch) and a real typescript-language-server:
 * fresh errors with the right line, no stale error after a fix (fixtures/bugs/README.md B42), another file broken by a write, a first
 * write without a prior read, fixtures/bugs/README.md B43 (apply_patch and write), a deleted file, a server killed mid-session, and no
 * process left after shutdown.
 * One manager (one tsserver) serves every case; the cases run in order and build on each other.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../tools/apply-patch';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import { makeWorkspace } from '../tools/tool-test-kit';
import type { Workspace } from '../tools/tool-test-kit';
import type { ToolOutcome } from '../tools/types';
import { writeTool } from '../tools/write';
import { LspManager } from './manager';
import { processesInGroups } from './proc-table';

let ws: Workspace;
let manager: LspManager;
const logs: string[] = [];

function output(o: ToolOutcome): string {
  expect(o.ok, o.output).toBe(true);
  return o.output;
}

function diagnosticsOf(o: ToolOutcome, rel: string): { line: number; severity: number; code?: string | number }[] {
  if (!o.ok) throw new Error(o.output);
  const all = o.metadata.diagnostics as
    Record<string, { line: number; severity: number; code?: string | number }[]> | undefined;
  return all?.[rel] ?? [];
}

beforeAll(async () => {
  ws = makeWorkspace();
  await ws.put('tsconfig.json', '{"compilerOptions":{"strict":true}}');
  await ws.put('e.ts', 'export const a: number = "x";\n');
  await ws.put('lib.ts', 'export const x = 1;\n');
  await ws.put('use.ts', "import { x } from './lib';\nexport const y: number = x;\n");
  const created = LspManager.create({ root: ws.root, timeoutScale: 2, log: (l) => logs.push(l) });
  if (!created.ok) throw new Error(created.error.message);
  manager = created.value;
  ws.ctx.diagnostics = manager.hook('s1');
  // Warm up once, the way the read tool does for every file it shows.
  for (const f of ['e.ts', 'lib.ts', 'use.ts']) output(await ws.run(readTool, { filePath: f }));
});

afterAll(async () => {
  await manager?.shutdown();
  await ws?.cleanup();
});

describe('typescript-language-server behind the tools', () => {
  it('B42: the fix reports no stale TS2322, and the next edit reports the new error on line 2 in the same result', async () => {
    const fixed = await ws.run(editTool, { filePath: 'e.ts', oldString: '"x"', newString: '1' });
    const text = output(fixed);
    expect(text).toContain('The edit itself succeeded');
    expect(text).toContain('No errors in e.ts (typescript).');
    expect(text).not.toContain('TS2322');
    expect(diagnosticsOf(fixed, 'e.ts').filter((d) => d.severity === 1)).toEqual([]);

    const broke = await ws.run(editTool, {
      filePath: 'e.ts',
      oldString: 'export const a: number = 1;',
      newString: 'export const a: number = 1;\nexport const b: boolean = 123;',
    });
    const text2 = output(broke);
    expect(text2).toContain('Errors in e.ts (typescript):');
    expect(text2).toMatch(/^ {2}2:14 Type 'number' is not assignable to type 'boolean'\. \[TS2322\]$/m);
    expect(diagnosticsOf(broke, 'e.ts')).toEqual([expect.objectContaining({ line: 2, severity: 1, code: 2322 })]);
  });

  it('an edit that fixes the error reports none (no stale error), and re-breaking reports it again', async () => {
    const fixed = output(
      await ws.run(editTool, { filePath: 'e.ts', oldString: 'boolean = 123', newString: 'boolean = true' }),
    );
    expect(fixed).toContain('No errors in e.ts (typescript).');
    expect(fixed).not.toContain('TS2322');
    const broke = output(
      await ws.run(editTool, { filePath: 'e.ts', oldString: 'boolean = true', newString: 'boolean = "no"' }),
    );
    expect(broke).toMatch(/^ {2}2:14 Type 'string' is not assignable to type 'boolean'\. \[TS2322\]$/m);
  });

  it('a write that breaks another file reports that other file', async () => {
    const text = output(await ws.run(writeTool, { filePath: 'lib.ts', content: 'export const z = 1;\n' }));
    expect(text).toContain('No errors in lib.ts (typescript).');
    expect(text).toContain('Other files with errors after this change:');
    expect(text).toMatch(
      /Errors in use\.ts \(typescript\):\n {2}1:10 .*has no exported member named 'x'.*\[TS2724\]|Errors in use\.ts \(typescript\):\n {2}1:10 .*has no exported member 'x'.*\[TS2305\]/,
    );
    // e.ts still has its error from the previous case and is open too: it is another file with errors.
    expect(text).toContain('Errors in e.ts (typescript):');
  });

  it('B43: apply_patch updating e.ts and adding n.ts reports TS2322 for both files in its result', async () => {
    await ws.put('e.ts', 'export const a: number = 1;\n');
    output(await ws.run(readTool, { filePath: 'e.ts' }));
    const patchText = [
      '*** Begin Patch',
      '*** Update File: e.ts',
      '@@',
      ' export const a: number = 1;',
      '+export const b: boolean = 123;',
      '*** Add File: n.ts',
      '+export const c: string = 5;',
      '*** End Patch',
    ].join('\n');
    const out = await ws.run(applyPatchTool, { patchText });
    const text = output(out);
    expect(text).toMatch(
      /Errors in e\.ts \(typescript\):\n {2}2:14 Type 'number' is not assignable to type 'boolean'\. \[TS2322\]/,
    );
    expect(text).toMatch(
      /Errors in n\.ts \(typescript\):\n {2}1:14 Type 'number' is not assignable to type 'string'\. \[TS2322\]/,
    );
    if (!out.ok) throw new Error(out.output);
    const meta = out.metadata.diagnostics as Record<string, { line: number; code?: number }[]>;
    expect(meta['e.ts']).toEqual([expect.objectContaining({ line: 2, code: 2322 })]);
    expect(meta['n.ts']).toEqual([expect.objectContaining({ line: 1, code: 2322 })]);
  });

  it('B43 via write: a new file written without any prior read gets its error promptly', async () => {
    const text = output(await ws.run(writeTool, { filePath: 'w.ts', content: 'export const c: string = 5;\n' }));
    expect(text).toMatch(
      /Errors in w\.ts \(typescript\):\n {2}1:14 Type 'number' is not assignable to type 'string'\. \[TS2322\]/,
    );
    expect(text).not.toContain('timed out');
  });

  it('a written path that is gone from disk (a delete) is closed on the server and reported as nothing', async () => {
    const abs = path.join(ws.root, 'w.ts');
    await rm(abs);
    const report = await ws.ctx.diagnostics!.afterWrite([abs], { reportOtherFiles: false });
    expect(report).toEqual({ text: '', diagnostics: { 'w.ts': [] } });
    expect(manager.clients()[0]!.docs.has(pathToFileURL(abs).href)).toBe(false);
  });

  it('a server killed mid-session is noticed, restarted, and answers fresh diagnostics', async () => {
    const [before] = manager.clients();
    expect(before).toBeDefined();
    const oldPid = before!.proc.pid;
    output(await ws.run(readTool, { filePath: 'e.ts' }));
    process.kill(-oldPid, 'SIGKILL');
    const text = output(
      await ws.run(writeTool, {
        filePath: 'e.ts',
        content: 'export const a: number = 1;\nexport const d: number = "d";\n',
      }),
    );
    expect(text).toMatch(
      /Errors in e\.ts \(typescript\):\n {2}2:14 Type 'string' is not assignable to type 'number'\. \[TS2322\]/,
    );
    const [after] = manager.clients();
    expect(after!.proc.pid).not.toBe(oldPid);
    expect(logs.some((l) => l.includes('exited unexpectedly'))).toBe(true);
    expect(processesInGroups([oldPid])).toEqual([]);
  });

  it('after shutdown no server process is left in the process table', async () => {
    const groups = manager.clients().map((c) => c.proc.pid);
    expect(groups.length).toBeGreaterThan(0);
    expect(processesInGroups(groups).length).toBeGreaterThan(1); // typescript-language-server + tsserver
    await manager.shutdown();
    expect(processesInGroups(groups)).toEqual([]);
    expect(manager.clients()).toEqual([]);
  });
});
