/**
 * The planner as a specification: where hunks land and which bytes the new text keeps. Pure: strings only. What
 * each pass of the locating ladder matches is in the test file beside that pass (passes/*.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse';
import { planFromText, updateText } from './plan';
import type { UpdateOperation } from './types';

const patchFor = (file: string, ...lines: string[]): string =>
  ['*** Begin Patch', `*** Update File: ${file}`, ...lines, '*** End Patch'].join('\n');

function apply(before: string, ...lines: string[]) {
  const parsed = parsePatch(patchFor('f.txt', ...lines));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return updateText(parsed.value.operations[0] as UpdateOperation, before);
}

function after(before: string, ...lines: string[]): string {
  const r = apply(before, ...lines);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

function codeOf(before: string, ...lines: string[]): string {
  const r = apply(before, ...lines);
  return r.ok ? 'ok' : r.error.code;
}

describe("updateText keeps the file's bytes", () => {
  it("CRLF stays CRLF, inserted lines take the file's ending", () => {
    expect(after('a\r\nb\r\nc\r\n', '@@', ' a', '-b', '+B', '+B2', ' c')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });

  it("a mixed-ending file keeps each untouched line's own ending", () => {
    expect(after('a\nb\r\nc\n', '@@', '-a', '+A')).toBe('A\nb\r\nc\n');
  });

  it('no final newline stays none: middle edit, last line edited, append, last line deleted', () => {
    expect(after('a\nb\nc', '@@', '-b', '+B')).toBe('a\nB\nc');
    expect(after('a\nb\nc', '@@', ' b', '-c', '+C')).toBe('a\nb\nC');
    expect(after('a\nb', '@@', '+c')).toBe('a\nb\nc');
    expect(after('a\nb\nc', '@@', ' b', '-c')).toBe('a\nb');
  });

  it("fuzzy-matched context keeps the file's spelling (trailing spaces, curly quotes, NBSP, ellipsis)", () => {
    expect(after('x  \n“q”\ty\u00A0z\nwait…\nend\n', '@@', ' x', ' "q"\ty z', ' wait...', '-end', '+END')).toBe(
      'x  \n“q”\ty\u00A0z\nwait…\nEND\n',
    );
  });

  it('a pure addition appends at the end, also into an empty file', () => {
    expect(after('a\n', '@@', '+b')).toBe('a\nb\n');
    expect(after('', '@@', '+b')).toBe('b\n');
  });
});

describe('updateText locates hunks', () => {
  const file = [
    'class A:',
    '    def f(self):',
    '        return 1',
    'class B:',
    '    def f(self):',
    '        return 1',
    '',
  ].join('\n');

  it('stacked anchors narrow the search: class, then method', () => {
    expect(after(file, '@@ class B:', '@@     def f(self):', '-        return 1', '+        return 2')).toBe(
      file.replace(/return 1\n$/, 'return 2\n'),
    );
  });

  it('an anchor binds to its first match; the old lines must still be unique from there to the end', () => {
    expect(after('x = 1\n[b]\nx = 1\n[b]\ny\n', '@@ [b]', '-x = 1', '+x = 2')).toBe('x = 1\n[b]\nx = 2\n[b]\ny\n');
    expect(codeOf(file, '@@ def f(self):', '-        return 1', '+        return 0')).toBe('ambiguous');
  });

  it('an anchor keeps its indentation, so the exact pass picks the method over a same-named function', () => {
    const src = 'def f():\n    return 1\nclass A:\n    def f():\n        return 1\n';
    expect(after(src, '@@     def f():', '-return 1', '+        return 2')).toBe(
      'def f():\n    return 1\nclass A:\n    def f():\n        return 2\n',
    );
  });

  it('without an anchor the same old lines twice are ambiguous, with the lines named', () => {
    const r = apply(file, '@@', '-        return 1', '+        return 2');
    expect(!r.ok && r.error.code).toBe('ambiguous');
    expect(!r.ok && r.error.data?.lines).toEqual([3, 6]);
  });

  it('the cursor only moves forward: hunks out of file order do not match', () => {
    const r = apply('a\nb\nc\n', '@@', '-c', '+C', '@@', '-a', '+A');
    expect(!r.ok && r.error.code).toBe('no_match');
    expect(!r.ok && r.error.message).toContain('hunks must follow the order of the file');
  });

  it('a second hunk may not re-match lines a first hunk consumed', () => {
    expect(codeOf('x\ny\n', '@@', '-x', '+X', '@@', ' x', '+z')).toBe('no_match');
  });

  it('End of File binds to the tail even when the lines repeat', () => {
    expect(after('a\nb\na\nb\n', '@@', '-a', '+A', ' b', '*** End of File')).toBe('a\nb\nA\nb\n');
    expect(codeOf('a\nb\nc\n', '@@', '-a', '*** End of File')).toBe('no_match');
  });

  it('trailing blank context lines the file does not have are retried without', () => {
    expect(after('a\nb', '@@', '-a', '+A', ' b', '')).toBe('A\nb');
  });

  it('no_match names the hunk, its patch line, the missing line and the nearest region', () => {
    const r = apply('one\ntwo\nthree\nfour\n', '@@', ' one', '-tow', '+2');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('no_match');
    expect(r.error.message).toContain('hunk 1 of f.txt (patch line 3)');
    expect(r.error.message).toContain('"tow"');
    expect(r.error.message).toContain('1 | one');
    expect(r.error.data?.nearest).toMatchObject({ startLine: 1, endLine: 2, matchingLines: 1 });
  });

  it('an unknown anchor is no_match naming the anchor', () => {
    const r = apply('a\n', '@@ def nowhere():', '-a');
    expect(!r.ok && r.error.code).toBe('no_match');
    expect(!r.ok && r.error.message).toContain('@@ def nowhere():');
  });
});

describe('planFromText', () => {
  it('plans every file of a patch (a comparable plan) without touching the disk', () => {
    const text = [
      '*** Begin Patch',
      '*** Add File: n.txt',
      '+new',
      '*** Update File: a.txt',
      '*** Move to: b.txt',
      '@@',
      '-1',
      '+2',
      '*** Delete File: d.txt',
      '*** End Patch',
    ].join('\n');
    const r = planFromText(
      text,
      new Map([
        ['a.txt', '1\n'],
        ['d.txt', 'gone\n'],
      ]),
    );
    expect(r.ok && r.value.files.map(({ edits: _edits, ...f }) => f)).toEqual([
      { kind: 'add', path: 'n.txt', before: null, after: 'new\n' },
      { kind: 'move', path: 'a.txt', movePath: 'b.txt', before: '1\n', after: '2\n' },
      { kind: 'delete', path: 'd.txt', before: 'gone\n', after: null },
    ]);
    expect(r.ok && r.value.files[1]?.edits).toEqual([{ oldStart: 0, oldCount: 1, added: [{ text: '2', eol: '\n' }] }]);
  });

  it('a source without text is missing_file', () => {
    const r = planFromText(['*** Begin Patch', '*** Delete File: x', '*** End Patch'].join('\n'), new Map());
    expect(!r.ok && r.error.code).toBe('missing_file');
  });
});
