/** The parser as a specification: what the envelope and the hunk grammar accept, and what they refuse. */
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse';
import type { UpdateOperation } from './types';

const wrap = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function update(text: string): UpdateOperation {
  const r = parsePatch(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.operations[0] as UpdateOperation;
}

function errorOf(text: string): { code: string; message: string } {
  const r = parsePatch(text);
  if (r.ok) throw new Error('expected a parse error');
  return r.error;
}

describe('parsePatch envelope', () => {
  it.each([
    ['<<EOF', 'EOF'],
    ["<<'EOF'", 'EOF'],
    ['<<"EOF"', 'EOF'],
  ])('unwraps a %s heredoc', (open, close) => {
    const r = parsePatch([open, wrap('*** Delete File: a.txt'), close].join('\n'));
    expect(r.ok && r.value.operations).toEqual([{ kind: 'delete', path: 'a.txt', rawPath: 'a.txt', patchLine: 3 }]);
  });

  it.each(['<<"EOF\'', "<<'EOF", '<<END'])('refuses the malformed heredoc %s', (open) => {
    expect(errorOf([open, wrap('*** Delete File: a.txt'), 'EOF'].join('\n')).code).toBe('parse');
  });

  it('strips one trailing CR per line and tolerates padded markers', () => {
    const op = update('\n\n  *** Begin Patch \r\n *** Update File:  a.txt \r\n@@\r\n-x\r\n+y\r\n  *** End Patch  \n\n');
    expect(op.path).toBe('a.txt');
    expect(op.hunks[0]?.lines).toEqual([
      { kind: 'delete', text: 'x' },
      { kind: 'add', text: 'y' },
    ]);
    expect(op.patchLine).toBe(4);
  });

  it.each([
    ['empty input', ''],
    ['no operations', wrap()],
    ['missing End Patch', '*** Begin Patch\n*** Delete File: a.txt'],
    ['missing Begin Patch', '*** Delete File: a.txt\n*** End Patch'],
    ['text after End Patch', wrap('*** Delete File: a.txt') + '\ntrailing words'],
  ])('refuses %s', (_name, text) => {
    expect(errorOf(text).code).toBe('parse');
  });
});

describe('parsePatch operations', () => {
  it('reads Add File lines verbatim, "+" alone being a blank line', () => {
    const r = parsePatch(wrap('*** Add File: d/n.txt', '+a', '+', '+  b'));
    expect(r.ok && r.value.operations[0]).toMatchObject({ kind: 'add', path: 'd/n.txt', contents: 'a\n\n  b\n' });
  });

  it('an Add File with no lines is an empty file', () => {
    const r = parsePatch(wrap('*** Add File: e.txt', '*** Delete File: f.txt'));
    expect(r.ok && r.value.operations.map((o) => o.kind)).toEqual(['add', 'delete']);
    expect(r.ok && r.value.operations[0]).toMatchObject({ contents: '' });
  });

  it('reads a move, hunks, a header-less first hunk and the End of File marker', () => {
    const op = update(
      wrap('*** Update File: a.txt', '*** Move to: ./b/c.txt', ' keep', '-old', '+new', '*** End of File'),
    );
    expect(op.movePath).toBe('b/c.txt');
    expect(op.hunks).toEqual([
      {
        patchLine: 4,
        anchors: [],
        endOfFile: true,
        lines: [
          { kind: 'context', text: 'keep' },
          { kind: 'delete', text: 'old' },
          { kind: 'add', text: 'new' },
        ],
      },
    ]);
  });

  it('stacks consecutive @@ anchors and reads unified-diff headers as anchors', () => {
    const op = update(
      wrap(
        '*** Update File: a.py',
        '@@ class A:',
        '@@     def f(self):',
        '-x',
        '+y',
        '@@ -10,2 +10,2 @@ def g():',
        ' z',
      ),
    );
    expect(op.hunks.map((h) => h.anchors)).toEqual([['class A:', '    def f(self):'], ['def g():']]);
  });

  it('a bare empty line inside a hunk is an empty context line', () => {
    const op = update(wrap('*** Update File: a.md', '@@', ' a', '', '-b'));
    expect(op.hunks[0]?.lines).toEqual([
      { kind: 'context', text: 'a' },
      { kind: 'context', text: '' },
      { kind: 'delete', text: 'b' },
    ]);
  });

  it('a pure rename (Move with no hunks) is accepted', () => {
    const op = update(wrap('*** Update File: a.txt', '*** Move to: b.txt', '', '*** Delete File: c.txt'));
    expect(op).toMatchObject({ kind: 'update', movePath: 'b.txt', hunks: [] });
  });

  it('names the patch line of an unprefixed line inside a hunk', () => {
    const e = errorOf(wrap('*** Update File: foo.txt', '@@', '-foo', 'bar'));
    expect(e.code).toBe('parse');
    expect(e.message).toContain('Patch line 5');
    expect(e.message).toContain('"bar"');
  });

  it.each([
    ['an @@ with no lines', wrap('*** Update File: a.txt', '@@')],
    ['an @@ with no lines before an End of File marker', wrap('*** Update File: a.txt', '@@', '*** End of File')],
    ['a bare @@ followed by another @@', wrap('*** Update File: a.txt', '@@', '@@ x', '-a')],
    ['an anchored @@ followed by a bare @@', wrap('*** Update File: a.txt', '@@ x', '@@', '-a')],
    ['an Update with no hunks', wrap('*** Update File: a.txt')],
    ['an unknown header', wrap('*** Patch File: a.txt', '@@', '-a')],
    ['a header without a path', wrap('*** Delete File:   ')],
    ['two operations on one normalised path', wrap('*** Delete File: a/b.txt', '*** Delete File: a/./c/../b.txt')],
    [
      "a move onto another operation's path",
      wrap('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-x', '*** Add File: b.txt', '+y'),
    ],
    ['Add File content without "+"', wrap('*** Add File: a.txt', '+x', 'y')],
    ['a tab-indented hunk line', wrap('*** Update File: a.txt', '@@', '\tx')],
  ])('refuses %s', (_name, text) => {
    expect(errorOf(text).code).toBe('parse');
  });
});

describe('header paths that name no file', () => {
  const p = (...lines: string[]): string => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

  it('an Update with a Move to its own path and no hunks is a parse error (it would report success and change nothing)', () => {
    const r = parsePatch(p('*** Update File: a.txt', '*** Move to: ./a.txt'));
    expect(!r.ok && r.error.code).toBe('parse');
    expect(!r.ok && r.error.data).toMatchObject({ patchLine: 2 });
  });

  it('a path that normalises to the root itself, or holds a NUL byte, is a parse error naming its line', () => {
    for (const bad of ['.', './', 'a/..', 'x\0y']) {
      const r = parsePatch(p(`*** Delete File: ${bad}`));
      expect(!r.ok && r.error.code, bad).toBe('parse');
      expect(!r.ok && r.error.data, bad).toMatchObject({ patchLine: 2 });
    }
  });
});
