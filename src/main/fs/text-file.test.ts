import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBytes, encodeText, lineEnding, readTextFile, toLineEnding } from './text-file';

const b = (latin1: string): Buffer => Buffer.from(latin1, 'latin1');

function decoded(bytes: Buffer): { text: string; encoding: string; bom: boolean } | string {
  const r = decodeBytes(bytes);
  return r.ok ? { text: r.value.text, encoding: r.value.encoding.encoding, bom: r.value.encoding.bom } : r.error.code;
}

describe('decodeBytes / encodeText: every file round-trips to its own bytes', () => {
  it('UTF-8 with and without BOM; the BOM is not part of the text', () => {
    expect(decoded(b('a\nb\n'))).toEqual({ text: 'a\nb\n', encoding: 'utf8', bom: false });
    expect(decoded(b('\xef\xbb\xbfa\nb\n'))).toEqual({ text: 'a\nb\n', encoding: 'utf8', bom: true });
    expect(encodeText('a\nB\n', { encoding: 'utf8', bom: true })).toEqual({ ok: true, value: b('\xef\xbb\xbfa\nB\n') });
  });

  it('UTF-16 LE and BE with BOM', () => {
    const le = Buffer.concat([b('\xff\xfe'), Buffer.from('héllo ✓\r\n', 'utf16le')]);
    const be = Buffer.concat([b('\xfe\xff'), Buffer.from('héllo ✓\r\n', 'utf16le').swap16()]);
    expect(decoded(le)).toEqual({ text: 'héllo ✓\r\n', encoding: 'utf16le', bom: true });
    expect(decoded(be)).toEqual({ text: 'héllo ✓\r\n', encoding: 'utf16be', bom: true });
    const r = encodeText('héllo ✓\r\n', { encoding: 'utf16be', bom: true });
    expect(r.ok && r.value.equals(be)).toBe(true);
  });

  it('legacy 8-bit text (Latin-1, Windows-1252, GBK) decodes to real characters and encodes back byte-identically', () => {
    for (const [text, enc] of [
      ['/* résumé café */\nint n = 1;\n', 'latin1'],
      ['// “smart” quotes — dash naïve façade\n', 'windows-1252'],
      ['// 中文注释：这是一个测试文件，包含一些汉字。\nint main() { return 0; }\n', 'gbk'],
    ] as const) {
      const bytes = iconv.encode(text, enc);
      const r = decodeBytes(bytes);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(r.value.text).toBe(text);
      const back = encodeText(r.value.text, r.value.encoding);
      expect(back.ok && back.value.equals(bytes)).toBe(true);
    }
  });

  it('bytes no detector reading would reproduce still round-trip (Latin-1 fallback), never through U+FFFD', () => {
    const all = Buffer.from(Array.from({ length: 255 }, (_, i) => i + 1));
    const r = decodeBytes(all);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.text).not.toContain('\ufffd');
      const back = encodeText(r.value.text, r.value.encoding);
      expect(back.ok && back.value.equals(all)).toBe(true);
    }
  });

  it('NUL bytes make a file binary (unless it is UTF-16 with a BOM)', () => {
    expect(decoded(b('PNG\x00\x01\x02'))).toBe('binary');
    expect(decoded(Buffer.from('ab', 'utf16le'))).toBe('binary');
  });

  it('text a legacy encoding cannot hold is `unencodable` (never "?" or U+FFFD), with the line named', () => {
    const r = encodeText('ok\nprice: 5€\n', { encoding: 'latin1', bom: false });
    expect(r.ok ? 'ok' : r.error.code).toBe('unencodable');
    expect(!r.ok && r.error.data).toMatchObject({ line: 2, char: 'U+20AC' });
    const lone = encodeText('a\ud800b', { encoding: 'utf8', bom: false });
    expect(lone.ok ? 'ok' : lone.error.code).toBe('unencodable');
    expect(encodeText('naïve', { encoding: 'latin1', bom: false })).toEqual({ ok: true, value: b('na\xefve') });
  });
});

describe('line endings', () => {
  it('lineEnding picks the dominant ending; a file without breaks is LF', () => {
    expect(lineEnding('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(lineEnding('a\nb\nc\r\n')).toBe('\n');
    expect(lineEnding('no newline')).toBe('\n');
  });
  it('toLineEnding converts every break and nothing else', () => {
    expect(toLineEnding('a\nb\r\nc', '\r\n')).toBe('a\r\nb\r\nc');
    expect(toLineEnding('a\r\nb\nc\r', '\n')).toBe('a\nb\nc\r');
  });
});

describe('readTextFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-text-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers file_not_found, is_directory, too_large, binary as data', async () => {
    writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(100));
    writeFileSync(path.join(dir, 'bin'), b('\x00\x01'));
    mkdirSync(path.join(dir, 'sub'));
    const code = async (p: string, max?: number): Promise<string> => {
      const r = await readTextFile(path.join(dir, p), max === undefined ? {} : { maxBytes: max });
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code('missing')).toBe('file_not_found');
    expect(await code('sub')).toBe('is_directory');
    expect(await code('big.txt', 50)).toBe('too_large');
    expect(await code('bin')).toBe('binary');
    expect(await code('big.txt')).toBe('ok');
  });

  it('returns the stamp of the bytes it decoded and the mode', async () => {
    const f = path.join(dir, 'a.txt');
    writeFileSync(f, 'hello\n', { mode: 0o640 });
    const r = await readTextFile(f);
    expect(r.ok && r.value.stamp).toMatchObject({
      size: 6,
      hash: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03',
    });
    expect(r.ok && r.value.mode).toBe(0o640);
  });
});

describe('decodeBytes on large legacy files', () => {
  it('a 1 MB GBK file whose first 600 KB are ASCII is still detected as GBK and round-trips', () => {
    const text =
      `${'// plain ascii line\n'.repeat(30_000)}// 中文注释：这是一个测试文件，包含一些汉字。\n`.repeat(1) +
      '// 更多的中文内容在这里出现，用于检测编码。\n'.repeat(2_000);
    const bytes = iconv.encode(text, 'gbk');
    const r = decodeBytes(bytes);
    expect(r.ok && r.value.encoding.encoding).toBe('gb18030');
    expect(r.ok && r.value.text).toBe(text);
  });
});
