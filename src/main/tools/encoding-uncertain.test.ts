/**
 * The file tools on files whose encoding the detector is not sure of (fs/encoding-proof.ts), on a real temp
 * workspace: a short Shift-JIS file (read as windows-1252) and a short GBK file, bytes made with iconv-lite.
 * ASCII edits land with every other byte untouched; an edit, multiedit, write or patch that adds text the file's
 * bytes cannot vouch for is refused as `encoding_uncertain` and the file keeps its bytes.
 */
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from './apply-patch';
import { editTool } from './edit';
import { multieditTool } from './multiedit';
import { readTool } from './read';
import { writeTool } from './write';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';
import { decodeBytes } from '../fs/text-file';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const SJIS = iconv.encode('// テスト\nconst x = 1;\n', 'shift_jis');
const GBK = iconv.encode('# 测试\nx = 1\n', 'gbk');

async function given(rel: string, bytes: Buffer): Promise<void> {
  await ws.put(rel, bytes);
  expect(codeOf(await ws.run(readTool, { filePath: rel }))).toBe('ok');
}

describe('edit and multiedit on a short Shift-JIS file', () => {
  it('an ASCII edit lands: the Japanese bytes stay exactly as they were', async () => {
    await given('a.js', SJIS);
    const o = await ws.run(editTool, { filePath: 'a.js', oldString: 'x = 1', newString: 'x = 2' });
    expect(codeOf(o)).toBe('ok');
    expect((await ws.bytes('a.js')).equals(iconv.encode('// テスト\nconst x = 2;\n', 'shift_jis'))).toBe(true);
  });

  it('an edit adding a character the bytes cannot vouch for is encoding_uncertain, nothing written', async () => {
    await given('a.js', SJIS);
    const o = await ws.run(editTool, { filePath: 'a.js', oldString: 'x = 1;', newString: 'x = 1; // caf\u00e9' });
    expect(codeOf(o)).toBe('encoding_uncertain');
    if (!o.ok) {
      expect(o.error.data).toMatchObject({ path: 'a.js', encoding: 'windows-1252', line: 2 });
      expect(JSON.stringify(o.error.data?.candidates)).toContain('shift_jis');
    }
    expect((await ws.bytes('a.js')).equals(SJIS)).toBe(true);
  });

  it('multiedit: one edit adding such text refuses the whole batch', async () => {
    await given('a.js', SJIS);
    const o = await ws.run(multieditTool, {
      filePath: 'a.js',
      edits: [
        { oldString: 'const', newString: 'let' },
        { oldString: 'x = 1', newString: 'x = "\u00e9"' },
      ],
    });
    expect(codeOf(o)).toBe('encoding_uncertain');
    expect((await ws.bytes('a.js')).equals(SJIS)).toBe(true);
  });
});

describe('write and apply_patch on a short GBK file', () => {
  it('write: ASCII changes land byte for byte; new non-ASCII text is refused', async () => {
    await given('a.py', GBK);
    const decoded = await readDecoded('a.py');
    expect(codeOf(await ws.run(writeTool, { filePath: 'a.py', content: decoded.replace('x = 1', 'x = 3') }))).toBe(
      'ok',
    );
    expect((await ws.bytes('a.py')).equals(iconv.encode('# 测试\nx = 3\n', 'gbk'))).toBe(true);
    await ws.run(readTool, { filePath: 'a.py' });
    const refused = await ws.run(writeTool, { filePath: 'a.py', content: `${decoded}# ${freshChar(decoded)}\n` });
    expect(codeOf(refused)).toBe('encoding_uncertain');
    expect((await ws.bytes('a.py')).equals(iconv.encode('# 测试\nx = 3\n', 'gbk'))).toBe(true);
  });

  it('apply_patch: an ASCII hunk lands; a hunk adding new non-ASCII text is refused, nothing written', async () => {
    await given('a.py', GBK);
    const ok = await ws.run(applyPatchTool, {
      patchText: ['*** Begin Patch', '*** Update File: a.py', '@@', '-x = 1', '+x = 5', '*** End Patch'].join('\n'),
    });
    expect(codeOf(ok)).toBe('ok');
    expect((await ws.bytes('a.py')).equals(iconv.encode('# 测试\nx = 5\n', 'gbk'))).toBe(true);
    await ws.run(readTool, { filePath: 'a.py' });
    const fresh = freshChar(await readDecoded('a.py'));
    const refused = await ws.run(applyPatchTool, {
      patchText: ['*** Begin Patch', '*** Update File: a.py', '@@', '-x = 5', `+x = "${fresh}"`, '*** End Patch'].join(
        '\n',
      ),
    });
    expect(codeOf(refused)).toBe('encoding_uncertain');
    expect((await ws.bytes('a.py')).equals(iconv.encode('# 测试\nx = 5\n', 'gbk'))).toBe(true);
  });
});

/** The file's text as the tools decode it (the read tool's numbered output is not the raw text). */
async function readDecoded(rel: string): Promise<string> {
  const r = decodeBytes(await ws.bytes(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.text;
}

/** A character not in `text` that common guessed encodings can still write (so the answer is not unencodable). */
function freshChar(text: string): string {
  return ['\u65e5', '\u00e9', '\u00fc', '\u0436'].find((c) => !text.includes(c)) ?? '\u00e9';
}
