import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileChange } from '../../shared/model';
import { readTool } from './read';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';
import type { PermissionRequest, ToolOutcome } from './types';
import { writeTool } from './write';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const read = (filePath: string): Promise<ToolOutcome> => ws.run(readTool, { filePath });
const write = (filePath: string, content: string): Promise<ToolOutcome> => ws.run(writeTool, { filePath, content });

describe('write: new files', () => {
  it('B17: a new file on POSIX gets LF, no invented CR, and runs', async () => {
    expect(codeOf(await write('run.sh', '#!/bin/sh\necho hi\n'))).toBe('ok');
    expect(await ws.raw('run.sh')).toBe('#!/bin/sh\necho hi\n');
    expect(codeOf(await write('crlf.sh', '#!/bin/sh\r\necho hi\r\n'))).toBe('ok');
    expect(await ws.raw('crlf.sh')).toBe('#!/bin/sh\necho hi\n');
  });

  it('writes UTF-8 verbatim (curly quotes, accents) into new nested folders; no final newline stays none', async () => {
    expect(codeOf(await write('deep/dir/fr.txt', 'l\u2019heure du d\u00e9part'))).toBe('ok');
    expect(await ws.raw('deep/dir/fr.txt')).toBe('l\xe2\x80\x99heure du d\xc3\xa9part');
  });

  it('B24 (write variant): the content of a new file appears exactly once', async () => {
    const content = 'class NewForm {\n  void a() {}\n  void b() {}\n}\n';
    const o = await write('NewForm.java', content);
    expect(await ws.raw('NewForm.java')).toBe(content);
    expect(o.ok && o.metadata.diff).toEqual({
      file: 'NewForm.java',
      additions: 4,
      deletions: 0,
      patch: expect.stringContaining('+  void b() {}'),
    });
  });

  it('a leading U+FEFF asks for a BOM and is written once', async () => {
    await write('bom.txt', '\ufeffx\n');
    expect(await ws.raw('bom.txt')).toBe('\xef\xbb\xbfx\n');
  });
});

describe('write: overwriting', () => {
  it('not_observed without a read; stale after an outside change (B28), file untouched', async () => {
    await ws.put('cfg.py', 'A = 1\nB = 2\nC = 3\n');
    expect(codeOf(await write('cfg.py', 'A = 10\nB = 2\nC = 3\n'))).toBe('not_observed');
    expect(codeOf(await read('cfg.py'))).toBe('ok');
    writeFileSync(path.join(ws.root, 'cfg.py'), 'A = 1\nB = 2\nC = 30\n');
    const o = await write('cfg.py', 'A = 10\nB = 2\nC = 3\n');
    expect(codeOf(o)).toBe('stale');
    expect(o.output).toContain('Read cfg.py again');
    expect(await ws.raw('cfg.py')).toBe('A = 1\nB = 2\nC = 30\n');
  });

  it('B16: an existing CRLF file keeps CRLF; the mode is kept; two writes in a row need no re-read', async () => {
    await ws.put('Unit1.pas', 'unit Unit1;\r\n\r\ninterface\r\n\r\nimplementation\r\n\r\nend.\r\n');
    chmodSync(path.join(ws.root, 'Unit1.pas'), 0o640);
    await read('Unit1.pas');
    expect(codeOf(await write('Unit1.pas', 'unit Unit1;\n\nend.\n'))).toBe('ok');
    expect(await ws.raw('Unit1.pas')).toBe('unit Unit1;\r\n\r\nend.\r\n');
    expect(statSync(path.join(ws.root, 'Unit1.pas')).mode & 0o777).toBe(0o640);
    expect(codeOf(await write('Unit1.pas', 'unit Unit1;\r\nend.\r\n'))).toBe('ok');
    expect(await ws.raw('Unit1.pas')).toBe('unit Unit1;\r\nend.\r\n');
  });

  it('an LF file stays LF when the content comes with CRLF', async () => {
    await ws.put('a.txt', 'a\nb\n');
    await read('a.txt');
    await write('a.txt', 'a\r\nB\r\n');
    expect(await ws.raw('a.txt')).toBe('a\nB\n');
  });

  it('B18 (write path): exactly one BOM whether or not the content carries U+FEFF', async () => {
    await ws.put('t.txt', '\xef\xbb\xbfa\nb\nc\n');
    await read('t.txt');
    expect(codeOf(await write('t.txt', 'a\nB\nc\n'))).toBe('ok');
    expect(await ws.raw('t.txt')).toBe('\xef\xbb\xbfa\nB\nc\n');
    expect(codeOf(await write('t.txt', '\ufeffa\nB\nc\n'))).toBe('ok');
    expect(await ws.raw('t.txt')).toBe('\xef\xbb\xbfa\nB\nc\n');
  });

  it('keeps a legacy encoding and refuses characters it cannot hold (unencodable), file untouched', async () => {
    await ws.put('cv.c', 'int n = 1;\n/* r\xe9sum\xe9 */\n');
    await read('cv.c');
    expect(codeOf(await write('cv.c', 'int n = 2;\n/* résumé */\n'))).toBe('ok');
    expect(await ws.raw('cv.c')).toBe('int n = 2;\n/* r\xe9sum\xe9 */\n');
    const o = await write('cv.c', 'int n = 2;\n/* résumé € */\n');
    expect(codeOf(o)).toBe('unencodable');
    expect(await ws.raw('cv.c')).toBe('int n = 2;\n/* r\xe9sum\xe9 */\n');
  });

  it('UTF-16 LE: written back as UTF-16 LE with its BOM (B20 kind)', async () => {
    await ws.put('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé\r\nwörld\r\n', 'utf16le')]));
    await read('u16.txt');
    await write('u16.txt', 'hé\nWÖRLD\n');
    expect(
      (await ws.bytes('u16.txt')).equals(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé\r\nWÖRLD\r\n', 'utf16le')]),
      ),
    ).toBe(true);
  });

  it('GBK text is written back as GBK', async () => {
    await ws.put('zh.txt', iconv.encode('// 中文注释：这是一个测试文件，包含一些汉字。\nx = 1\n', 'gbk'));
    await read('zh.txt');
    await write('zh.txt', '// 中文注释：这是一个测试文件，包含一些汉字。\nx = 2\n');
    expect(
      (await ws.bytes('zh.txt')).equals(iconv.encode('// 中文注释：这是一个测试文件，包含一些汉字。\nx = 2\n', 'gbk')),
    ).toBe(true);
  });
});

describe('write: B22 elided content', () => {
  const views =
    Array.from({ length: 13 }, (_, i) => `def v${i + 1}():\n    return ${i + 1}\n\n`).join('') +
    'def target():\n    return 0\n';

  it('refuses a write that stands for left-out code with a placeholder and shrinks the file; file unchanged', async () => {
    await ws.put('views.py', views);
    await read('views.py');
    const o = await write(
      'views.py',
      'def v1():\n    return 1\n\n# ... (rest of the code remains unchanged)\n\ndef target():\n    return 42\n',
    );
    expect(codeOf(o)).toBe('elided');
    expect(o.output).toContain('Use edit');
    expect(await ws.raw('views.py')).toBe(views);
  });

  it('negative controls: a real comment about "the rest of the code" in a new file, or a big shrink without placeholder, go through', async () => {
    expect(codeOf(await write('new.py', '# rest of the code lives in utils.py\nimport utils\n'))).toBe('ok');
    await ws.put('views.py', views);
    await read('views.py');
    expect(codeOf(await write('views.py', 'def target():\n    return 0\n'))).toBe('ok');
    await ws.put('keep.py', '# rest of the code unchanged\n' + views);
    await read('keep.py');
    expect(codeOf(await write('keep.py', '# rest of the code unchanged\ndef target():\n    return 0\n'))).toBe('ok');
  });
});

describe('write: boundary, permission, diagnostics', () => {
  it('B44: writes through symlinks out of the workspace are refused and nothing is created outside', async () => {
    const outside = path.join(ws.outer, 'OUTSIDE');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim.txt'), 'orig\n');
    symlinkSync('../OUTSIDE', path.join(ws.root, 'outbox'));
    symlinkSync('../OUTSIDE/victim.txt', path.join(ws.root, 'notes.md'));
    symlinkSync('../OUTSIDE/new.txt', path.join(ws.root, 'dangling.txt'));
    for (const [p, c] of [
      ['outbox/escaped.txt', 'ESCAPED\n'],
      ['notes.md', 'OWNED\n'],
      ['dangling.txt', 'NEW\n'],
      ['../OUTSIDE/x.txt', 'x'],
      [path.join(outside, 'y.txt'), 'y'],
    ]) {
      const o = await write(p as string, c as string);
      expect(codeOf(o)).toBe('outside_root');
    }
    const o = await write('notes.md', 'OWNED\n');
    expect(o.output).toContain(path.join(outside, 'victim.txt'));
    expect(readdirSync(outside)).toEqual(['victim.txt']);
    expect(readFileSync(path.join(outside, 'victim.txt'), 'latin1')).toBe('orig\n');
  });

  it('asks permission with the preview diff; a refusal writes nothing', async () => {
    const asked: PermissionRequest[] = [];
    const o = await ws.run(
      writeTool,
      { filePath: 'p.txt', content: 'x\n' },
      {
        ask: async (req) => {
          asked.push(req);
          return { allow: false, reason: 'not now' };
        },
      },
    );
    expect(codeOf(o)).toBe('permission_denied');
    expect(o.output).toContain('not now');
    expect(asked[0]).toMatchObject({ tool: 'write', permission: 'edit', patterns: ['p.txt'] });
    expect((asked[0]?.preview as FileChange[])[0]).toMatchObject({ file: 'p.txt', additions: 1, deletions: 0 });
    expect(readdirSync(ws.root)).toEqual([]);
  });

  it('appends the diagnostics text and asks for other files too', async () => {
    let seen: { paths: string[]; other: boolean } | undefined;
    const o = await ws.run(
      writeTool,
      { filePath: 'e.ts', content: 'export const a: number = "x";\n' },
      {
        diagnostics: {
          touch: () => undefined,
          afterWrite: async (paths, opts) => {
            seen = { paths, other: opts.reportOtherFiles };
            return { text: 'e.ts:1:14 error TS2322', diagnostics: {} };
          },
        },
      },
    );
    expect(o.ok && o.output).toBe('Created e.ts (+1 -0 lines).\n\ne.ts:1:14 error TS2322');
    expect(seen).toEqual({ paths: [path.join(ws.root, 'e.ts')], other: true });
  });
});
