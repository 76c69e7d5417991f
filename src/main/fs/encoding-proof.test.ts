/**
 * Uncertain encodings (text-file.ts confidence, encoding-proof.ts): a short Shift-JIS file reads as windows-1252
 * and a short GBK one as a single-byte or wrong multi-byte encoding — the detector now says it is not sure, and a
 * write may only add what the file's bytes vouch for. Bytes are made with iconv-lite in the test.
 * The property test is hostile: random short legacy files, random edits a model makes on the text as decoded
 * (ASCII edits anywhere, including inside a misread character; new non-ASCII characters; copied lines); every
 * edit the proof accepts must leave the file valid in its TRUE encoding with no character in it that the file
 * did not hold before. "attempts / held" is printed.
 */
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { proveEncoding } from './encoding-proof';
import { decodeBytes, encodeText, type TextEncodingInfo } from './text-file';

function read(bytes: Buffer): { text: string; encoding: TextEncodingInfo } {
  const r = decodeBytes(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Encode `text` back as the file was read, and judge it. */
function write(bytes: Buffer, text: string): { code: string; bytes?: Buffer } {
  const info = read(bytes).encoding;
  const out = encodeText(text, info);
  if (!out.ok) return { code: out.error.code };
  const proof = proveEncoding(bytes, out.value, info, 'f.txt');
  return proof.ok ? { code: 'ok', bytes: out.value } : { code: proof.error.code };
}

const sjis = iconv.encode('// テスト\nconst x = 1;\n', 'shift_jis');
const gbk = iconv.encode('# 测试\nx = 1\n', 'gbk');

describe('the detector says when it is not sure', () => {
  it('a short Shift-JIS file reads as windows-1252, unsure, with Shift_JIS among the candidates', () => {
    const { encoding } = read(sjis);
    expect(encoding.encoding).toBe('windows-1252');
    expect(encoding.uncertain?.candidates.map((c) => c.encoding)).toContain('shift_jis');
  });

  it('a short GBK file is unsure too, with GB18030 among the candidates', () => {
    const { encoding } = read(gbk);
    expect(encoding.uncertain).toBeDefined();
    expect(encoding.uncertain?.candidates.map((c) => c.encoding)).toContain('gb18030');
  });

  it('longer Shift-JIS and GBK files, UTF-8 and BOM files are sure', () => {
    const long = (text: string, enc: string) => read(iconv.encode(text.repeat(3), enc)).encoding;
    expect(long('// 日本語のコメントです。これはテストファイルです。\n', 'shift_jis')).toEqual({
      encoding: 'shift_jis',
      bom: false,
    });
    expect(long('# 这是一个测试文件，用于检查编码。\nx = 1  # 设置变量的值\n', 'gbk')).toEqual({
      encoding: 'gb18030',
      bom: false,
    });
    expect(read(Buffer.from('// テスト\n', 'utf8')).encoding).toEqual({ encoding: 'utf8', bom: false });
    expect(read(Buffer.from('\xef\xbb\xbfx\n', 'latin1')).encoding).toEqual({ encoding: 'utf8', bom: true });
  });
});

describe('a write to an unsure file adds only what its bytes vouch for', () => {
  it('Shift-JIS: an ASCII edit lands with every other byte untouched; new Japanese or Latin text is refused', () => {
    const { text } = read(sjis);
    const edited = write(sjis, text.replace('x = 1', 'x = 42'));
    expect(edited.code).toBe('ok');
    expect(edited.bytes?.equals(iconv.encode('// テスト\nconst x = 42;\n', 'shift_jis'))).toBe(true);
    expect(write(sjis, text.replace('x = 1', 'x = 1; // caf\u00e9')).code).toBe('encoding_uncertain');
    expect(write(sjis, `${text}// \u201cquoted\u201d\n`).code).toBe('encoding_uncertain');
  });

  it('GBK: an ASCII edit lands byte for byte; a new character is refused; a copied line is vouched for', () => {
    const { text } = read(gbk);
    expect(write(gbk, text.replace('x = 1', 'x = 2')).bytes?.equals(iconv.encode('# 测试\nx = 2\n', 'gbk'))).toBe(true);
    const firstLine = text.split('\n')[0] ?? '';
    expect(write(gbk, `${text}${firstLine}\n`).bytes?.equals(iconv.encode('# 测试\nx = 1\n# 测试\n', 'gbk'))).toBe(
      true,
    );
    // a character the guessed encoding can write (else the answer is unencodable, also a refusal)
    const info = read(gbk).encoding;
    const fresh = ['\u65e5', '\u00e9', '\u0436'].find((c) => encodeText(c, info).ok) ?? '\u00e9';
    expect(write(gbk, text.replace('x = 1', `x = '${fresh}'`)).code).toBe('encoding_uncertain');
  });

  it('an ASCII edit that would split a misread double-byte character is refused', () => {
    // Shift-JIS "ソ" is 0x83 0x5C: read as windows-1252 it shows as "ƒ\\", and editing the "\\" would break it
    const bytes = iconv.encode('// テスト\nconst s = "ソ";\n', 'shift_jis');
    const { text, encoding } = read(bytes);
    expect(encoding.encoding).toBe('windows-1252');
    expect(text).toContain('"\u0192\\"');
    expect(write(bytes, text.replace('\u0192\\', '\u0192/')).code).toBe('encoding_uncertain');
    expect(write(bytes, text.replace('const s', 'let s')).code).toBe('ok');
  });

  it('a Latin-1 file (only single-byte encodings fit) may take an accented letter it already holds', () => {
    const bytes = Buffer.from('int n = 1;\n/* r\xe9sum\xe9 */\n', 'latin1');
    const { text } = read(bytes);
    expect(write(bytes, text.replace('résumé', 'résumé café')).code).toBe('ok');
    expect(write(bytes, text.replace('résumé', 'résumé über')).code).toBe('encoding_uncertain');
  });

  it('the refusal names the encoding, the candidates, the line and the next step', () => {
    const info = read(sjis).encoding;
    const out = encodeText(read(sjis).text.replace('x = 1', 'x = "\u00e9"'), info);
    const proof = out.ok ? proveEncoding(sjis, out.value, info, 'src/a.js') : undefined;
    expect(proof?.ok).toBe(false);
    if (proof && !proof.ok) {
      expect(proof.error.data).toMatchObject({ path: 'src/a.js', encoding: 'windows-1252', line: 2 });
      expect(proof.error.message).toMatch(/shift_jis/);
      expect(proof.error.hint).toMatch(/ASCII|UTF-8/);
    }
  });
});

const tally = { attempts: 0, accepted: 0, refused: 0, held: 0 };
afterAll(() => {
  process.stdout.write(
    `\nuncertain-encoding writes: ${tally.attempts} attempts (${tally.accepted} accepted, ${tally.refused} refused) / ${tally.held} held\n`,
  );
});

const POOLS: Record<string, string> = {
  shift_jis: 'テストソ日本語の表示能十',
  gbk: '测试中文编码的汉字',
  big5: '測試中文編碼',
  'euc-jp': 'テスト日本語',
  latin1: '\u00e9\u00e8\u00e0\u00e7\u00fc',
  'windows-1251': '\u043f\u0440\u0438\u0432\u0435\u0442',
};
const nonAscii = (s: string): string => s.replace(/[\x20-\x7e\n]/g, '');

/** True when `bytes` decode in `enc` to characters that encode back to exactly them (no split character). */
function cleanIn(bytes: Buffer, enc: string): boolean {
  return iconv.encode(iconv.decode(bytes, enc), enc).equals(bytes);
}

/** The changed byte range: [p, endBefore) of `before` became [p, endAfter) of `after`. */
function byteChange(before: Buffer, after: Buffer): { p: number; endBefore: number; endAfter: number } {
  const min = Math.min(before.length, after.length);
  let p = 0;
  while (p < min && before[p] === after[p]) p++;
  let s = 0;
  while (s < min - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  return { p, endBefore: before.length - s, endAfter: after.length - s };
}

describe('hostile: edits to short legacy files', () => {
  it('every write the proof accepts is valid in the true encoding and adds no character the file lacked', () => {
    const encodings = fc.constantFrom(...Object.keys(POOLS));
    const file = encodings.chain((enc) =>
      fc.tuple(
        fc.constant(enc),
        fc.array(
          fc.array(
            fc.oneof(fc.constantFrom('x', ' ', '=', '1', '\\', '/', '"'), fc.constantFrom(...(POOLS[enc] ?? ''))),
            {
              maxLength: 8,
            },
          ),
          { minLength: 1, maxLength: 4 },
        ),
      ),
    );
    const edit = fc.tuple(
      fc.constantFrom('ascii', 'nonascii', 'copyline'),
      fc.nat(),
      fc.nat(5),
      fc.constantFrom('y', '42', ' ', '\\', '\u00e9', '\u201c', '\u30c6', '\u6d4b', '\u00e8'),
    );
    fc.assert(
      fc.property(file, edit, ([enc, lines], [kind, at, len, piece]) => {
        const truth = lines.map((l) => l.join('')).join('\n') + '\n';
        const bytes = iconv.encode(truth, enc);
        const seen = read(bytes);
        fc.pre(seen.encoding.uncertain !== undefined);
        const t = seen.text;
        const i = at % t.length;
        let changed: string;
        if (kind === 'copyline') changed = t + (t.split('\n')[at % lines.length] ?? '') + '\n';
        else if (kind === 'ascii')
          changed = t.slice(0, i) + (/^[\x20-\x7e]*$/.test(piece) ? piece : 'z') + t.slice(i + len);
        else changed = t.slice(0, i) + piece + t.slice(i + len);
        fc.pre(changed !== t);
        tally.attempts++;
        const w = write(bytes, changed);
        if (w.code !== 'ok' || !w.bytes) {
          tally.refused++;
          tally.held++;
          return;
        }
        tally.accepted++;
        const detail = JSON.stringify({ enc, truth, changed });
        expect(cleanIn(w.bytes, enc), `valid in the true encoding: ${detail}`).toBe(true);
        const { p, endBefore, endAfter } = byteChange(bytes, w.bytes);
        expect(cleanIn(bytes.subarray(0, p), enc) && cleanIn(bytes.subarray(0, endBefore), enc), detail).toBe(true);
        const added = nonAscii(iconv.decode(w.bytes.subarray(p, endAfter), enc));
        expect(
          [...added].every((c) => truth.includes(c)),
          detail,
        ).toBe(true);
        tally.held++;
      }),
      { numRuns: 3000 },
    );
  });
});
