/**
 * The one settings reader (read.ts): JSON with comments and trailing commas is settings, and every other text is
 * refused with the 1-based line and column a person fixing the file needs — for a bad character inside a string,
 * the column of that very character, not of the string's opening quote. On real files for `loadSettings`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, parseSettingsText } from './read';

const BASE = '"defaultProvider": "local",\n  "providers": []';

describe('parseSettingsText', () => {
  it('reads line and block comments and trailing commas as VS Code does', () => {
    const text =
      '// my settings\n{\n  /* the box under the desk */ "defaultProvider": "local",\n  "providers": [],\n' +
      '  "permissions": [\n    { "permission": "bash", "pattern": "ls*", "action": "allow", },\n  ],\n}\n';
    const parsed = parseSettingsText(text);
    expect(parsed).toMatchObject({
      ok: true,
      settings: { defaultProvider: 'local', permissions: [{ permission: 'bash', pattern: 'ls*', action: 'allow' }] },
    });
  });

  it.each([
    ['a key without quotes', `{\n  ${BASE},\n  notes: "x"\n}`, 'invalid symbol', 4, 3],
    ['a raw tab inside a string (the tab itself)', '{\n  "defaultProvider": "a\tb"\n}', 'invalid character', 2, 24],
    ['a bad escape (its backslash)', '{\n  "defaultProvider": "a\\qb"\n}', 'invalid escape character', 2, 24],
    ['a short \\u escape (its backslash)', '{ "defaultProvider": "x\\u12" }', 'invalid unicode', 1, 24],
    ['an array never closed (at the end)', '{\n  "permissions": [\n', 'close bracket expected', 3, 1],
    ['an empty file', '', 'value expected', 1, 1],
    ['CRLF line ends count as one line break', '{\r\n  "a": 1,\r\n  b\r\n}', 'invalid symbol', 3, 3],
  ])('%s: syntax error at its line and column', (_name, text, detail, line, column) => {
    expect(parseSettingsText(text)).toEqual({ ok: false, reason: 'syntax', detail, line, column });
  });

  it('text that parses but is not settings names every bad field by its path', () => {
    const parsed = parseSettingsText(
      `{ ${BASE}, "permissions": [ { "permission": "bash", "pattern": 3, "action": "allow" } ] }`,
    );
    expect(parsed).toMatchObject({ ok: false, reason: 'fields' });
    expect(parsed.ok === false && parsed.detail).toMatch(/^at permissions\.0\.pattern: .*expected string/);
  });
});

describe('loadSettings', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'landfall-settings-read-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('an absent file is the defaults; a byte-order mark is ignored', async () => {
    expect(await loadSettings(join(dir, 'settings.json'))).toMatchObject({
      ok: true,
      value: { providers: expect.any(Array) },
    });
    const file = join(dir, 'bom.json');
    await writeFile(file, `\uFEFF{ ${BASE}, "permissions": [], }`);
    expect(await loadSettings(file)).toMatchObject({ ok: true, value: { defaultProvider: 'local', providers: [] } });
  });

  it('a broken file is invalid_input with its path, line and column in data, and is left byte for byte', async () => {
    const file = join(dir, 'settings.json');
    const text = `{\n  ${BASE},\n  "permissions": [,]\n}\n`;
    await writeFile(file, text);
    const r = await loadSettings(file);
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { file, line: 4, column: 19 } },
    });
    expect(!r.ok && r.error.message).toBe(`${file} is not valid JSON at line 4, column 19 (value expected)`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
