/**
 * The engine attacked as a model would (the safety rules: uniqueness gate, span gate, never land elsewhere,
 * never throw): mixed tabs/spaces, very long lines, oldString spanning the whole file or equal to a line prefix,
 * unicode (combining marks, astral characters, zero-width), lone CR, empty lines only, overlapping replaceAll, and
 * an oldString that fits both the exact rung and a fuzzy one. Hand-written cases first, then fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replace } from './index';
import { cutsToken } from './gates';
import type { ReplaceSuccess } from './index';
import type { Result } from '../../../shared/errors';

function landed(r: Result<ReplaceSuccess>): ReplaceSuccess {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const code = (r: Result<ReplaceSuccess>): string => (r.ok ? `landed:${r.value.rung}` : r.error.code);

describe('characters are never split', () => {
  it('an oldString that is half of a surrogate pair never lands (no lone surrogate written)', () => {
    const r = replace('x = "😀";\n', '\ud83d', 'Z');
    expect(code(r)).toBe('not_found');
  });

  it('a span ending between a base letter and its combining mark never lands', () => {
    // the file shows "é" (e + U+0301); the model's "e" is not in it
    expect(code(replace('e\u0301\n', 'e', 'x'))).toBe('not_found');
    expect(code(replace('cafe\u0301 = 1\n', 'cafe', 'tea'))).toBe('not_found');
  });

  it('a span starting at a combining mark or a zero-width joiner never lands', () => {
    expect(code(replace('e\u0301 x\n', '\u0301 x', 'y'))).toBe('not_found');
    expect(code(replace('👩\u200d💻 dev\n', '\u200d💻 dev', 'ops'))).toBe('not_found');
  });

  it('a whole character with its mark lands, and a bare letter elsewhere still lands alone', () => {
    expect(landed(replace('e\u0301 + e\n', 'e\u0301', 'x')).content).toBe('x + e\n');
    expect(landed(replace('e\u0301 + e;\n', 'e;', 'f;')).content).toBe('e\u0301 + f;\n');
  });

  it('astral characters land on whole code points', () => {
    expect(landed(replace('x = "😀";\ny = 1;\n', '"😀"', '"😁"')).content).toBe('x = "😁";\ny = 1;\n');
  });
});

describe('model-shaped edge cases', () => {
  it('a tab-indented block recalled with spaces lands with tabs', () => {
    const file = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    const r = landed(replace(file, '    if (x) {\n        return 1;\n    }', '    if (x) {\n        return 2;\n    }'));
    expect(r.content).toBe('function f() {\n\tif (x) {\n\t\treturn 2;\n\t}\n}\n');
  });

  it('tabs for indentation and spaces for alignment (smart tabs) survive a rebased edit line for line', () => {
    const file = '\tif (a) {\n\t    b();\n\t}\n';
    const r = landed(replace(file, 'if (a) {\n    b();\n}', 'if (a) {\n    c();\n    d();\n}'));
    expect(r.content).toBe('\tif (a) {\n\t    c();\n\t    d();\n\t}\n');
  });

  it('oldString spanning the whole file replaces it all', () => {
    expect(landed(replace('a\r\nb\nc', 'a\nb\nc', 'x')).content).toBe('x');
    expect(landed(replace('a\nb\nc\n', 'a\nb\nc\n', '')).content).toBe('');
  });

  it('an oldString that is a prefix of two lines is ambiguous, of one line lands', () => {
    expect(code(replace('const foo = 1;\nconst foobar = 2;\nconst foo = 3;\n', 'const foo', 'let foo'))).toBe(
      'ambiguous',
    );
    expect(landed(replace('const foo = 1;\nconst foobar = 2;\n', 'const foo =', 'let foo =')).content).toBe(
      'let foo = 1;\nconst foobar = 2;\n',
    );
  });

  it('a lone CR is an ordinary character, never a line break', () => {
    expect(landed(replace('a\rb\r\nc', 'b\nc', 'B\nC')).content).toBe('a\rB\r\nC');
    expect(code(replace('a\rb\n', 'a\nb', 'x'))).toBe('not_found');
  });

  it('a CR left dangling at the end of both strings (CRLF split on LF) is not written as a stray CR', () => {
    expect(landed(replace('a\r\nb\r\n', 'b\r', 'c\r')).content).toBe('a\r\nc\r\n');
    expect(landed(replace('a\r\nb\r\nc\r\n', 'a\r\nb\r', 'a\r\nB\r')).content).toBe('a\r\nB\r\nc\r\n');
  });

  it('empty lines only: a blank run present several times is ambiguous', () => {
    expect(code(replace('\n\n\n\n', '\n\n', '\nx\n'))).toBe('ambiguous');
    expect(code(replace('\n\n\n', '\n', 'x'))).toBe('ambiguous');
  });

  it('replaceAll with overlapping occurrences replaces non-overlapping ones left to right', () => {
    expect(landed(replace('((((', '((', '[', { replaceAll: true })).content).toBe('[[');
    expect(landed(replace('--- -', '--', '=', { replaceAll: true })).content).toBe('=- -');
  });

  it('a place exact at the simple rung wins over a place only a fuzzy rung sees', () => {
    const file = 'if (x) {\n  y();\n}\n  if (x) {\n    y();\n  }\n';
    const r = landed(replace(file, 'if (x) {\n  y();\n}', 'if (z) {\n  y();\n}'));
    expect([r.rung, r.content]).toEqual(['simple', 'if (z) {\n  y();\n}\n  if (x) {\n    y();\n  }\n']);
  });

  it('an edit inside a very long line lands without touching the rest of it', () => {
    const line = `${'a '.repeat(20000)}needle ${'b '.repeat(20000)}`;
    const r = landed(replace(`${line}\n`, 'needle', 'pin'));
    expect(r.content).toBe(`${line.replace('needle', 'pin')}\n`);
  });
});

describe('safety properties on unicode-heavy input', () => {
  const unit = fc.constantFrom(
    'a',
    'e',
    ' ',
    '\n',
    '\r',
    '\t',
    '\u0301',
    '\u200b',
    '\u200d',
    '😀',
    '\ud83d',
    'é',
    '\u00a0',
    '"',
    '\u201c',
  );
  const text = fc.array(unit, { maxLength: 40 }).map((xs) => xs.join(''));
  const wellFormed = (s: string): boolean =>
    !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

  it('never throws, never writes outside the reported span, never breaks a well-formed file', () => {
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (content, old, replacement, replaceAll) => {
        const r = replace(content, old, replacement, { replaceAll });
        if (!r.ok) return;
        const { start, end, content: out } = r.value;
        expect(out.slice(0, start)).toBe(content.slice(0, start));
        expect(out.slice(out.length - (content.length - end))).toBe(content.slice(end));
        if (wellFormed(content) && wellFormed(replacement)) expect(wellFormed(out)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('never land elsewhere (fast-check over distorted blocks)', () => {
  const token = fc.constantFrom('foo', 'bar', 'x', 'return', '1', '{', '}', '(a, b)', ';', 'if', 'y = 2');
  const line = fc
    .tuple(fc.constantFrom('', '  ', '    ', '\t', '\t  '), fc.array(token, { maxLength: 4 }))
    .map(([indent, tokens]) => indent + tokens.join(' '));
  const distortion = fc.constantFrom('none', 'indent', 'dedent', 'spaces', 'tabs', 'trail', 'drop');
  const distort = (block: string[], how: string): string[] => {
    if (how === 'indent') return block.map((l) => `  ${l}`);
    if (how === 'dedent') return block.map((l) => l.replace(/^ {1,2}|^\t/, ''));
    if (how === 'spaces') return block.map((l) => l.replace(/ /g, '  '));
    if (how === 'tabs') return block.map((l) => l.replace(/\t/g, '    '));
    if (how === 'trail') return block.map((l) => `${l}  `);
    return how === 'drop' && block.length > 3 ? [block[0] ?? '', ...block.slice(2)] : block;
  };
  const squash = (s: string): string => s.trim().replace(/\s+/g, ' ');

  it('a fuzzy landing covers the recalled block or a region equal to it up to whitespace', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 14 }),
        fc.nat(),
        fc.nat(),
        distortion,
        fc.array(line, { maxLength: 3 }),
        (lines, a, b, how, news) => {
          const first = a % lines.length;
          const last = first + (b % Math.min(5, lines.length - first));
          const block = distort(lines.slice(first, last + 1), how);
          fc.pre(block.join('').trim() !== '');
          const content = `${lines.join('\n')}\n`;
          const r = replace(content, block.join('\n'), news.join('\n'));
          if (!r.ok || r.value.rung === 'simple') return;
          const inside = r.value.startLine >= first + 1 && r.value.endLine <= last + 1;
          const region = content
            .split('\n')
            .slice(r.value.startLine - 1, r.value.endLine)
            .join('\n');
          expect(inside || squash(region) === squash(block.join('\n'))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('replaceAll on exact occurrences', () => {
  it('oldString twice inside newString is not taken for already applied (fast-check counterexample)', () => {
    const r = replace(';;a', ';', ';;', { replaceAll: true });
    expect(r.ok && [r.value.rung, r.value.content]).toEqual(['simple', ';;;;a']);
  });

  it('equals a left-to-right non-overlapping replacement when every occurrence is whole-token', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\n', '(', ')', ';');
    const text = fc.array(unit, { minLength: 1, maxLength: 30 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(text, text, fc.stringMatching(/^[xy ;\n]{0,4}$/), (content, old, replacement) => {
        fc.pre(old.trim().length > 0 && old !== replacement && content.includes(old));
        const starts: number[] = [];
        for (let i = content.indexOf(old); i !== -1; i = content.indexOf(old, i + old.length)) starts.push(i);
        fc.pre(starts.every((i) => !cutsToken(content, i, i + old.length)));
        // an oldString starting with whitespace inside a line's indentation is widened to the line start on
        // purpose (gates.ts alignToIndentation: the model's indentation was off); that case is tested elsewhere
        const insideIndent = (i: number): boolean =>
          /^[ \t]/.test(old) &&
          i > content.lastIndexOf('\n', i - 1) + 1 &&
          /^[ \t]*$/.test(content.slice(content.lastIndexOf('\n', i - 1) + 1, i));
        fc.pre(!starts.some(insideIndent));
        // an oldString ending in a line break is whole lines: it lands only where it starts a line (gates.ts
        // coversWholeLines; properties-landings.test.ts holds that rule)
        fc.pre(!old.endsWith('\n') || starts.every((i) => /(^|\n)[ \t]*$/.test(content.slice(0, i))));
        const r = replace(content, old, replacement, { replaceAll: true });
        if (!r.ok) {
          expect(r.error.code).toBe('no_change');
          return;
        }
        expect([r.value.rung, r.value.content]).toEqual(['simple', content.split(old).join(replacement)]);
      }),
      { numRuns: 1000 },
    );
  });
});
