import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileChange } from '../../shared/model';
import { editTool, type EditInput } from './edit';
import { readTool } from './read';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';
import type { PermissionRequest, ToolContext, ToolOutcome } from './types';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const read = (filePath: string): Promise<ToolOutcome> => ws.run(readTool, { filePath });
const edit = (input: EditInput, extra?: Partial<ToolContext>): Promise<ToolOutcome> => ws.run(editTool, input, extra);

/** Put a file and read it, as every bug scenario starts. */
async function given(rel: string, bytes: string | Buffer): Promise<void> {
  await ws.put(rel, bytes);
  expect(codeOf(await read(rel))).toBe('ok');
}

describe('edit: landing and reporting', () => {
  it('names the rung and the line range, and carries the commit diff from the real bytes', async () => {
    await given('a.txt', 'one\ntwo\nthree\n');
    const o = await edit({ filePath: 'a.txt', oldString: 'two', newString: 'TWO' });
    expect(o.ok && o.output).toBe('a.txt: Edited line 2 (rung simple, exact match).');
    expect(o.ok && o.metadata).toMatchObject({ rung: 'simple', startLine: 2, endLine: 2, replacements: 1 });
    expect(o.ok && o.metadata.diff).toEqual({
      file: 'a.txt',
      additions: 1,
      deletions: 1,
      patch:
        '===================================================================\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    });
    expect(await ws.raw('a.txt')).toBe('one\nTWO\nthree\n');
  });

  it('engine refusals reach the model as data and leave the file untouched', async () => {
    await given('d.txt', 'x = 1\nx = 1\n');
    expect(codeOf(await edit({ filePath: 'd.txt', oldString: 'x = 1', newString: 'x = 2' }))).toBe('ambiguous');
    expect(codeOf(await edit({ filePath: 'd.txt', oldString: 'nothing like it', newString: 'y' }))).toBe('not_found');
    expect(codeOf(await edit({ filePath: 'd.txt', oldString: 'x = 1', newString: 'x = 1' }))).toBe('no_change');
    expect(await ws.raw('d.txt')).toBe('x = 1\nx = 1\n');
    const all = await edit({ filePath: 'd.txt', oldString: 'x = 1', newString: 'x = 2', replaceAll: true });
    expect(all.ok && all.metadata.replacements).toBe(2);
    expect(await ws.raw('d.txt')).toBe('x = 2\nx = 2\n');
  });

  it('keeps the file mode', async () => {
    await given('run.sh', '#!/bin/sh\necho a\n');
    chmodSync(path.join(ws.root, 'run.sh'), 0o755);
    await edit({ filePath: 'run.sh', oldString: 'echo a', newString: 'echo b' });
    expect(statSync(path.join(ws.root, 'run.sh')).mode & 0o777).toBe(0o755);
  });
});

describe('edit: creating files (empty oldString)', () => {
  it('creates a new file with LF endings', async () => {
    const o = await edit({ filePath: 'src/new.ts', oldString: '', newString: 'export const x = 1;\r\n' });
    expect(codeOf(o)).toBe('ok');
    expect(await ws.raw('src/new.ts')).toBe('export const x = 1;\n');
  });

  it('B10: an empty oldString on an existing file is refused (exists), file untouched, whatever its size', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    await given('rc.sh', lines);
    const o = await edit({ filePath: 'rc.sh', oldString: '', newString: 'appended\n' });
    expect(codeOf(o)).toBe('exists');
    expect(await ws.raw('rc.sh')).toBe(lines);
  });
});

describe('edit: line endings', () => {
  const cases: Array<[string, string, string]> = [
    ['LF file, LF args', 'a\nb\nc\n', '\n'],
    ['LF file, CRLF args', 'a\nb\nc\n', '\r\n'],
    ['CRLF file, LF args', 'a\r\nb\r\nc\r\n', '\n'],
    ['CRLF file, CRLF args', 'a\r\nb\r\nc\r\n', '\r\n'],
  ];
  for (const [name, file, eol] of cases) {
    it(`${name}: the file keeps its own ending`, async () => {
      await given('f.txt', file);
      const o = await edit({ filePath: 'f.txt', oldString: `a${eol}b`, newString: `a${eol}B${eol}b2` });
      expect(codeOf(o)).toBe('ok');
      const fe = file.includes('\r\n') ? '\r\n' : '\n';
      expect(await ws.raw('f.txt')).toBe(`a${fe}B${fe}b2${fe}c${fe}`);
    });
  }

  it('B16: inserting lines into a CRLF .pas unit keeps every line CRLF', async () => {
    await given('Unit1.pas', 'unit Unit1;\r\n\r\ninterface\r\n\r\nimplementation\r\n\r\nend.\r\n');
    expect(
      codeOf(await edit({ filePath: 'Unit1.pas', oldString: 'interface', newString: 'interface\n\nuses SysUtils;' })),
    ).toBe('ok');
    expect(await ws.raw('Unit1.pas')).toBe(
      'unit Unit1;\r\n\r\ninterface\r\n\r\nuses SysUtils;\r\n\r\nimplementation\r\n\r\nend.\r\n',
    );
  });

  it('B14: strings that differ only in line endings are no_change, said as such', async () => {
    await given('e.txt', 'a\r\nb');
    const o = await edit({ filePath: 'e.txt', oldString: 'a\r\nb', newString: 'a\nb' });
    expect(codeOf(o)).toBe('no_change');
    expect(o.output).toContain('line endings');
    expect(await ws.raw('e.txt')).toBe('a\r\nb');
  });

  it('a file without a final newline keeps none', async () => {
    await given('n.txt', 'x\r\ny');
    await edit({ filePath: 'n.txt', oldString: 'y', newString: 'z' });
    expect(await ws.raw('n.txt')).toBe('x\r\nz');
  });
});

describe('edit: BOM and encodings', () => {
  it('B18 (edit path): exactly one BOM; oldString spanning line 1 matches without U+FEFF', async () => {
    await given('t.txt', '\xef\xbb\xbfa\nb\nc\n');
    expect(codeOf(await edit({ filePath: 't.txt', oldString: 'b', newString: 'B' }))).toBe('ok');
    expect(await ws.raw('t.txt')).toBe('\xef\xbb\xbfa\nB\nc\n');
    expect(codeOf(await edit({ filePath: 't.txt', oldString: 'a\nB', newString: 'A\nB' }))).toBe('ok');
    expect(await ws.raw('t.txt')).toBe('\xef\xbb\xbfA\nB\nc\n');
    expect(codeOf(await edit({ filePath: 't.txt', oldString: '\ufeffA', newString: '\ufeffa' }))).toBe('ok');
    expect(await ws.raw('t.txt')).toBe('\xef\xbb\xbfa\nB\nc\n');
  });

  it('B19: BOM, CRLF and every multi-byte character preserved byte for byte', async () => {
    await given('Mod.vb', "\xef\xbb\xbf' \xc3\x9cdv\xc3\xb6zl\xc5\x91 sz\xc3\xb6veg\r\nDim n = 1\r\n");
    expect(codeOf(await edit({ filePath: 'Mod.vb', oldString: 'Dim n = 1', newString: 'Dim n = 2' }))).toBe('ok');
    expect(await ws.raw('Mod.vb')).toBe("\xef\xbb\xbf' \xc3\x9cdv\xc3\xb6zl\xc5\x91 sz\xc3\xb6veg\r\nDim n = 2\r\n");
  });

  it('B20: a Latin-1 file keeps its 0xE9 bytes (never EF BF BD); text outside Latin-1 is refused as unencodable', async () => {
    await given('cv.c', 'int n = 1;\n/* r\xe9sum\xe9 */\n');
    expect(codeOf(await edit({ filePath: 'cv.c', oldString: 'int n = 1;', newString: 'int n = 2;' }))).toBe('ok');
    expect(await ws.raw('cv.c')).toBe('int n = 2;\n/* r\xe9sum\xe9 */\n');
    expect(codeOf(await edit({ filePath: 'cv.c', oldString: 'résumé', newString: 'résumé café' }))).toBe('ok');
    expect(await ws.raw('cv.c')).toBe('int n = 2;\n/* r\xe9sum\xe9 caf\xe9 */\n');
    const o = await edit({ filePath: 'cv.c', oldString: 'int n = 2;', newString: 'int n = 2; // ✓' });
    expect(codeOf(o)).toBe('unencodable');
    expect(await ws.raw('cv.c')).toBe('int n = 2;\n/* r\xe9sum\xe9 caf\xe9 */\n');
  });

  it('UTF-16 LE and BE files are edited in place and keep encoding, BOM and CRLF', async () => {
    const le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const be = (s: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()]);
    await given('le.txt', le('key = välue\r\nz = ✓\r\n'));
    await given('be.txt', be('key = välue\r\nz = ✓\r\n'));
    await edit({ filePath: 'le.txt', oldString: 'key = välue', newString: 'key = wört' });
    await edit({ filePath: 'be.txt', oldString: 'key = välue', newString: 'key = wört' });
    expect((await ws.bytes('le.txt')).equals(le('key = wört\r\nz = ✓\r\n'))).toBe(true);
    expect((await ws.bytes('be.txt')).equals(be('key = wört\r\nz = ✓\r\n'))).toBe(true);
  });

  it('binary files are refused, untouched', async () => {
    await ws.put('x.bin', 'ab\x00cd');
    const o = await edit({ filePath: 'x.bin', oldString: 'ab', newString: 'AB' });
    expect(codeOf(o)).toBe('binary');
    expect(await ws.raw('x.bin')).toBe('ab\x00cd');
  });
});

describe('edit: observed versions', () => {
  it("not_observed for a file the session never read (another session's read does not count)", async () => {
    await ws.put('cfg.py', 'A = 1\n');
    expect(codeOf(await edit({ filePath: 'cfg.py', oldString: 'A = 1', newString: 'A = 2' }))).toBe('not_observed');
    await ws.run(readTool, { filePath: 'cfg.py' }, { sessionId: 'other' });
    expect(codeOf(await edit({ filePath: 'cfg.py', oldString: 'A = 1', newString: 'A = 2' }))).toBe('not_observed');
    expect(await ws.raw('cfg.py')).toBe('A = 1\n');
  });

  it('B28: after an outside change, an exact unique edit lands on the current content and says so', async () => {
    await given('cfg.py', 'A = 1\nB = 2\nC = 3\n');
    writeFileSync(path.join(ws.root, 'cfg.py'), 'A = 1\nB = 2\nC = 30\n');
    const o = await edit({ filePath: 'cfg.py', oldString: 'A = 1', newString: 'A = 10' });
    expect(codeOf(o)).toBe('ok');
    expect(o.output).toContain('had changed on disk');
    expect(await ws.raw('cfg.py')).toBe('A = 10\nB = 2\nC = 30\n');
  });

  it('stale (not not_found) when the region the model remembers was changed, checked before matching', async () => {
    await given('cfg.py', 'A = 1\nB = 2\nC = 3\n');
    writeFileSync(path.join(ws.root, 'cfg.py'), 'A = 1\nB = 2\nC = 30\n');
    const o = await edit({ filePath: 'cfg.py', oldString: 'C = 3\n', newString: 'C = 4\n' });
    expect(codeOf(o)).toBe('stale');
    expect(await ws.raw('cfg.py')).toBe('A = 1\nB = 2\nC = 30\n');
    // A loose (non-exact) match on a stale file is refused as stale too.
    const loose = await edit({ filePath: 'cfg.py', oldString: 'B  =  2', newString: 'B = 20' });
    expect(codeOf(loose)).toBe('stale');
  });

  it('a file changed while the permission prompt is open is not overwritten (stale)', async () => {
    await given('p.txt', 'v1\n');
    const o = await edit(
      { filePath: 'p.txt', oldString: 'v1', newString: 'v2' },
      {
        ask: async () => {
          writeFileSync(path.join(ws.root, 'p.txt'), 'user\n');
          return { allow: true };
        },
      },
    );
    expect(codeOf(o)).toBe('stale');
    expect(await ws.raw('p.txt')).toBe('user\n');
  });
});

describe('edit: bug reproductions', () => {
  it('B24: an appended method appears exactly once', async () => {
    await given('Form.java', 'class Form {\n  void a() {}\n}\n');
    expect(
      codeOf(
        await edit({
          filePath: 'Form.java',
          oldString: '  void a() {}\n}',
          newString: '  void a() {}\n  void b() {}\n}',
        }),
      ),
    ).toBe('ok');
    const text = await ws.raw('Form.java');
    expect(text).toBe('class Form {\n  void a() {}\n  void b() {}\n}\n');
    expect(text.split('void b').length - 1).toBe(1);
  });

  it('B44: edits through symlinks out of the workspace are refused naming the real path; inside links are followed', async () => {
    const outside = path.join(ws.outer, 'OUTSIDE');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim.txt'), 'orig\n');
    symlinkSync('../OUTSIDE/victim.txt', path.join(ws.root, 'notes.md'));
    symlinkSync('../OUTSIDE', path.join(ws.root, 'outbox'));
    const o = await edit({ filePath: 'notes.md', oldString: 'orig', newString: 'OWNED' });
    expect(codeOf(o)).toBe('outside_root');
    expect(o.output).toContain(path.join(outside, 'victim.txt'));
    expect(codeOf(await edit({ filePath: 'outbox/p.txt', oldString: '', newString: 'x' }))).toBe('outside_root');
    expect(readdirSync(outside)).toEqual(['victim.txt']);
    expect(readFileSync(path.join(outside, 'victim.txt'), 'latin1')).toBe('orig\n');
    // control: a link to a file inside the workspace is edited in its real place
    await given('src/lib.ts', 'x\n');
    symlinkSync('src/lib.ts', path.join(ws.root, 'alias.ts'));
    const ok = await edit({ filePath: 'alias.ts', oldString: 'x', newString: 'y' });
    expect(ok.ok && ok.metadata.diff).toMatchObject({ file: 'src/lib.ts' });
    expect(await ws.raw('src/lib.ts')).toBe('y\n');
    expect(lstatSync(path.join(ws.root, 'alias.ts')).isSymbolicLink()).toBe(true);
  });
});

describe('edit: permission and diagnostics', () => {
  it('asks with a preview diff before writing; the answer no leaves the file untouched', async () => {
    await given('a.txt', 'x\n');
    const asked: PermissionRequest[] = [];
    const o = await edit(
      { filePath: 'a.txt', oldString: 'x', newString: 'y' },
      {
        ask: async (r) => {
          asked.push(r);
          return { allow: false };
        },
      },
    );
    expect(codeOf(o)).toBe('permission_denied');
    expect((asked[0]?.preview as FileChange[])[0]).toMatchObject({
      file: 'a.txt',
      additions: 1,
      deletions: 1,
      patch: expect.stringContaining('-x\n+y'),
    });
    expect(await ws.raw('a.txt')).toBe('x\n');
  });

  it('calls afterWrite with the real path inside the lock and appends its text', async () => {
    await given('e.ts', 'export const a: number = "x";\n');
    const o = await edit(
      { filePath: 'e.ts', oldString: '"x"', newString: '1' },
      {
        diagnostics: {
          touch: () => undefined,
          afterWrite: async (paths, opts) => ({
            text: `checked ${path.basename(paths[0] ?? '')} other=${opts.reportOtherFiles}`,
            diagnostics: {},
          }),
        },
      },
    );
    expect(o.ok && o.output).toBe('e.ts: Edited line 1 (rung simple, exact match).\n\nchecked e.ts other=false');
  });
});
