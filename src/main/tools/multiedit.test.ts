import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multieditTool } from './multiedit';
import { readTool } from './read';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

describe('multiedit', () => {
  it('B12: edits resolve against the original text — A gains the prop, B loses it', async () => {
    await ws.put('v.jsx', '<A />\n<B onGen={g} />\n');
    await ws.run(readTool, { filePath: 'v.jsx' });
    const o = await ws.run(multieditTool, {
      filePath: 'v.jsx',
      edits: [
        { oldString: '<A />', newString: '<A onGen={g} />' },
        { oldString: '<B onGen={g} />', newString: '<B />' },
      ],
    });
    expect(codeOf(o)).toBe('ok');
    expect(await ws.raw('v.jsx')).toBe('<A onGen={g} />\n<B />\n');
    expect(o.ok && o.metadata.diff).toMatchObject({ file: 'v.jsx', additions: 2, deletions: 2 });
  });

  it('all or nothing: one failing edit writes nothing and the error names it', async () => {
    await ws.put('c.txt', 'a\r\nb\r\n');
    await ws.run(readTool, { filePath: 'c.txt' });
    const o = await ws.run(multieditTool, {
      filePath: 'c.txt',
      edits: [
        { oldString: 'a', newString: 'A' },
        { oldString: 'zzz', newString: 'q' },
      ],
    });
    expect(codeOf(o)).toBe('not_found');
    expect(o.output).toContain('Edit 2 of 2');
    expect(await ws.raw('c.txt')).toBe('a\r\nb\r\n');
    expect(
      codeOf(
        await ws.run(multieditTool, {
          filePath: 'c.txt',
          edits: [
            { oldString: 'a', newString: 'A' },
            { oldString: 'b', newString: 'B' },
          ],
        }),
      ),
    ).toBe('ok');
    expect(await ws.raw('c.txt')).toBe('A\r\nB\r\n');
  });

  it('not_observed and stale are refused', async () => {
    await ws.put('s.txt', 'x\n');
    expect(
      codeOf(await ws.run(multieditTool, { filePath: 's.txt', edits: [{ oldString: 'x', newString: 'y' }] })),
    ).toBe('not_observed');
    await ws.run(readTool, { filePath: 's.txt' });
    await ws.put('s.txt', 'x\nz\n');
    expect(
      codeOf(await ws.run(multieditTool, { filePath: 's.txt', edits: [{ oldString: 'x', newString: 'y' }] })),
    ).toBe('stale');
    expect(await ws.raw('s.txt')).toBe('x\nz\n');
  });
});
