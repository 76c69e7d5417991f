/**
 * Engine-level reproductions of the public bug reports in fixtures/bugs/README.md (B01–B14 that touch matching,
 * edit semantics and line endings). Each expectation is the right behaviour named there.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, describeLanding, replace } from './index';

function landed(r: ReturnType<typeof replace>) {
  if (!r.ok) throw new Error(`expected a landing, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

function code(r: { ok: boolean; error?: { code: string } }): string {
  return r.ok ? 'landed' : (r.error?.code ?? '?');
}

describe('public bug reproductions', () => {
  it("B01 tabs: a 4-space oldString on a tab-indented Go file lands with the file's tabs and says it was not exact", () => {
    const file = 'package main\n\nfunc main() {\n\tif ready {\n\t\tstart()\n\t}\n}\n';
    const r = landed(
      replace(file, '    if ready {\n        start()\n    }', '    if ready && ok {\n        start()\n    }'),
    );
    expect(r.content).toBe('package main\n\nfunc main() {\n\tif ready && ok {\n\t\tstart()\n\t}\n}\n');
    expect([r.startLine, r.endLine]).toEqual([4, 6]);
    expect(describeLanding(r)).toMatch(/NOT an exact match.*whitespace-tolerant.*indentation rebased/);
  });

  it('B02 fuzzy observability: the result names the rule and line 2, keeps the 3-space indent; not_found tells the real tolerance', () => {
    const file = 'alpha\n   beta_line\ngamma\n';
    const r = landed(replace(file, '    beta_line', '    beta_line_v2'));
    expect(r.content).toBe('alpha\n   beta_line_v2\ngamma\n');
    expect(r.rung).toBe('line-trimmed');
    expect(describeLanding(r)).toContain('line 2');
    expect(describeLanding(r)).not.toBe(describeLanding({ ...r, rung: 'simple', corrections: [] }));
    const miss = replace(file, 'nonexistent_xyz', 'q');
    expect(code(miss)).toBe('not_found');
    if (!miss.ok) {
      expect(miss.error.message).toMatch(/indentation/);
      expect(miss.error.message).not.toMatch(/byte-exact|exactly match/i);
    }
  });

  it('B03 whitespace-normalised ambiguity: two lines differing only in spacing are two places; replaceAll takes both', () => {
    const file = 'alpha   beta\nalpha\tbeta\n';
    const r = replace(file, 'alpha beta', 'gamma');
    expect(code(r)).toBe('ambiguous');
    if (!r.ok)
      expect(r.error.data?.matches).toEqual([
        { startLine: 1, endLine: 1 },
        { startLine: 2, endLine: 2 },
      ]);
    expect(landed(replace(file, 'alpha beta', 'gamma', { replaceAll: true })).content).toBe('gamma\ngamma\n');
  });

  it('B05 curly quotes: raw code points compared and written; untouched curly quotes stay curly', () => {
    expect(landed(replace("He said 'yes' today.\n", "'yes'", '\u2018yes\u2019')).content).toBe(
      'He said \u2018yes\u2019 today.\n',
    );
    const quote = 'She said \u201cHello.\u201d Then left.\n';
    expect(landed(replace(quote, 'Then left.', 'Then stayed.')).content).toBe(
      'She said \u201cHello.\u201d Then stayed.\n',
    );
  });

  it('B06 HTML entities: arguments are taken literally, both edits land byte-exactly', () => {
    const first = landed(replace("<p>It doesn't matter</p>\n// a &amp; b\n", "doesn't", 'doesn&apos;t'));
    expect(first.content).toBe('<p>It doesn&apos;t matter</p>\n// a &amp; b\n');
    expect(landed(replace(first.content, '// a &amp; b', '// a &amp; c')).content).toBe(
      '<p>It doesn&apos;t matter</p>\n// a &amp; c\n',
    );
  });

  it('B07 distant anchors: a stitched oldString never swallows the 500 lines between', () => {
    const rules = Array.from({ length: 500 }, (_, i) => `.r${i + 1} { margin: ${i + 1}px; }`).join('\n');
    const css = `.btn:focus {\n  outline-offset: 3px;\n}\n\n${rules}\n\n/* ===== 27. MOBILE ===== */\n.m { color: red; }\n`;
    const r = replace(css, '  outline-offset: 3px;\n}\n\n/* ===== 27. MOBILE ===== */', '  outline-offset: 2px;');
    expect(code(r)).toBe('not_found');
  });

  it('B08 weak anchor with invented middle: not found, however common the closing brace', () => {
    const db =
      'class Db {\n  open() {\n    this.pool = makePool()\n  }\n\n  async query(sql: string) {\n    const c = await this.pool.take()\n    try {\n      return await c.run(sql)\n    } finally {\n      this.pool.give(c)\n    }\n  }\n\n  close() {\n    this.pool.end()\n  }\n}\n';
    const old =
      '  async query(sql: string) {\n    const rows = cache.get(sql)\n    if (rows) return rows\n    log(sql)\n  }';
    expect(code(replace(db, old, '  async query(sql: string) {\n    return []\n  }'))).toBe('not_found');
  });

  it('B10 empty oldString on an existing file is too_broad (only an empty file may be filled)', () => {
    const notes = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    expect(code(replace(notes, '', 'appended\n'))).toBe('too_broad');
    expect(landed(replace('', '', 'first\n')).content).toBe('first\n');
  });

  it('B11 repeated block: multiple matches listed, and no looser rung resolves it with a bigger span', () => {
    const calc = 'def a():\n    total = 0\n    return total\n\ndef b():\n    total = 0\n    return total\n';
    const r = replace(calc, '    total = 0\n    return total\n', '    total = 1\n    return total\n');
    expect(code(r)).toBe('ambiguous');
    if (!r.ok)
      expect(r.error.data?.matches).toEqual([
        { startLine: 2, endLine: 3 },
        { startLine: 6, endLine: 7 },
      ]);
    expect(code(replace('if (a) {\n  x()\n}\nif (b) {\n  y()\n}\n', '}', '} // end'))).toBe('ambiguous');
  });

  it('B12 multi-edit ordering: every edit resolves against the original text', () => {
    const view = '<A\n  pinned={x}\n  onPin={p}\n/>\n<B\n  onGen={g}\n/>\n';
    const batch = applyEdits(view, [
      { oldString: '  pinned={x}\n  onPin={p}\n', newString: '  pinned={x}\n  onGen={g}\n  onPin={p}\n' },
      { oldString: '  onGen={g}\n', newString: '' },
    ]);
    if (!batch.ok) throw new Error(batch.error.message);
    expect(batch.value.content).toBe('<A\n  pinned={x}\n  onGen={g}\n  onPin={p}\n/>\n<B\n/>\n');
    const first = landed(replace(view, '  pinned={x}\n  onPin={p}\n', '  pinned={x}\n  onGen={g}\n  onPin={p}\n'));
    expect(code(replace(first.content, '  onGen={g}\n', ''))).toBe('ambiguous');
  });

  it('B12 overlapping edits of one batch are refused and nothing lands', () => {
    const r = applyEdits('a b c\n', [
      { oldString: 'a b', newString: 'x' },
      { oldString: 'b c', newString: 'y' },
    ]);
    expect(code(r)).toBe('conflict');
  });

  it('B13 whitespace-only change: exact match wins and the new indentation is written', () => {
    expect(
      landed(replace('def f():\n    x = 1\n     y = 2\n    return x + y\n', '     y = 2', '    y = 2')).content,
    ).toBe('def f():\n    x = 1\n    y = 2\n    return x + y\n');
    expect(landed(replace('if x:\n\tpass\n', '\tpass', '    pass')).content).toBe('if x:\n    pass\n');
  });

  it('B14 CRLF-only change: no_change that says line endings are preserved, never a fake success', () => {
    const r = replace('a\r\nb', 'a\r\nb', 'a\nb');
    expect(code(r)).toBe('no_change');
    if (!r.ok) expect(r.error.message).toMatch(/line endings/);
  });
});
