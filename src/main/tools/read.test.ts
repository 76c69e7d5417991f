import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from './read';
import { makeWorkspace, type Workspace } from './tool-test-kit';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const out = (o: Awaited<ReturnType<Workspace['run']>>): string => (o.ok ? o.output : `ERR ${o.error.code}`);

describe('read', () => {
  it('numbers lines "N: text", hides CR and the BOM (B18), and records the observed version', async () => {
    await ws.put('t.txt', '\xef\xbb\xbfa\r\nb\r\nc\r\n');
    const o = await ws.run(readTool, { filePath: 't.txt' });
    expect(out(o)).toBe('1: a\n2: b\n3: c');
    expect(o.ok && o.metadata).toMatchObject({
      lines: 3,
      encoding: 'utf8',
      bom: true,
      lineEnding: 'crlf',
      truncated: false,
    });
    expect(ws.ctx.observed.get('s1', path.join(ws.root, 't.txt'))?.size).toBe(12);
  });

  it('offset and limit select lines and the note says how to read further', async () => {
    await ws.put('n.txt', Array.from({ length: 10 }, (_, i) => `${i + 1}`).join('\n') + '\n');
    const o = await ws.run(readTool, { filePath: 'n.txt', offset: 4, limit: 3 });
    expect(out(o)).toBe('4: 4\n5: 5\n6: 6\n(showing lines 4-6 of 10; call read with offset=7 to read further)');
    expect(out(await ws.run(readTool, { filePath: 'n.txt', offset: 20 }))).toBe(
      '(the file has only 10 lines; offset 20 is past its end)',
    );
  });

  it('cuts lines over 2,000 characters with a marker', async () => {
    await ws.put('long.txt', `${'x'.repeat(2500)}\nshort\n`);
    const o = out(await ws.run(readTool, { filePath: 'long.txt' }));
    expect(o).toBe(`1: ${'x'.repeat(2000)}… [line cut: 2500 characters in all]\n2: short`);
  });

  it('cuts output over 50 KB and names the offset to continue from', async () => {
    await ws.put('big.txt', Array.from({ length: 2000 }, (_, i) => `${i}:${'y'.repeat(60)}`).join('\n') + '\n');
    const o = await ws.run(readTool, { filePath: 'big.txt' });
    const text = out(o);
    expect(Buffer.byteLength(text)).toBeLessThan(51 * 1024);
    const last = o.ok ? (o.metadata.to as number) : 0;
    expect(
      text.endsWith(
        `(output cut at 50 KB after line ${last} of 2000; call read with offset=${last + 1} to read further)`,
      ),
    ).toBe(true);
    expect(last).toBeGreaterThan(700);
    expect(
      out(await ws.run(readTool, { filePath: 'big.txt', offset: last + 1, limit: 1 })).startsWith(
        `${last + 1}: ${last}:`,
      ),
    ).toBe(true);
  });

  it('a directory lists its entries', async () => {
    await ws.put('src/a.ts', 'a');
    await ws.put('src/b.ts', 'b');
    mkdirSync(path.join(ws.root, 'src', 'lib'));
    expect(out(await ws.run(readTool, { filePath: 'src' }))).toBe('src/ (3 entries)\na.ts\nb.ts\nlib/');
  });

  it('refuses binary files and names missing files with similar names', async () => {
    await ws.put('logo.png', '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR');
    expect(out(await ws.run(readTool, { filePath: 'logo.png' }))).toBe('ERR binary');
    expect(ws.ctx.observed.get('s1', path.join(ws.root, 'logo.png'))).toBeUndefined();
    await ws.put('config.json', '{}');
    const o = await ws.run(readTool, { filePath: 'config.yaml' });
    expect(!o.ok && o.error.code).toBe('file_not_found');
    expect(!o.ok && o.error.hint).toContain('config.json');
  });

  it('shows a Latin-1 file as real characters and says its encoding', async () => {
    await ws.put('cv.c', 'int n = 1;\n/* r\xe9sum\xe9 */\n');
    const o = out(await ws.run(readTool, { filePath: 'cv.c' }));
    expect(o.split('\n').slice(0, 2)).toEqual(['1: int n = 1;', '2: /* résumé */']);
    expect(o).toMatch(/\(encoding: [\w-]+; edits are written back in it\)/);
  });

  it('B44: reads through symlinks that leave the workspace are refused, never returning the outside bytes', async () => {
    mkdirSync(path.join(ws.outer, 'OUTSIDE'));
    writeFileSync(path.join(ws.outer, 'OUTSIDE', 'victim.txt'), 'orig\n');
    symlinkSync('../OUTSIDE', path.join(ws.root, 'outbox'));
    symlinkSync('../OUTSIDE/victim.txt', path.join(ws.root, 'notes.md'));
    expect(out(await ws.run(readTool, { filePath: 'notes.md' }))).toBe('ERR outside_root');
    expect(out(await ws.run(readTool, { filePath: 'outbox/victim.txt' }))).toBe('ERR outside_root');
    expect(out(await ws.run(readTool, { filePath: 'outbox/../OUTSIDE/victim.txt' }))).toBe('ERR file_not_found');
    expect(out(await ws.run(readTool, { filePath: '../OUTSIDE/victim.txt' }))).toBe('ERR outside_root');
  });

  it("warms the file's language server up", async () => {
    await ws.put('a.ts', 'export {}\n');
    const touched: string[] = [];
    await ws.run(
      readTool,
      { filePath: 'a.ts' },
      { diagnostics: { touch: (p) => touched.push(p), afterWrite: async () => ({ text: '', diagnostics: {} }) } },
    );
    expect(touched).toEqual([path.join(ws.root, 'a.ts')]);
  });
});
