/**
 * The decision loop's rules, one behaviour per test: outcomes the conformance corpus names only by kind. What a
 * single rung finds and must not find is in the test file beside that rung (replacers/*.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { RUNG_NAMES, applyEdits, describeLanding, replace } from './index';

function landed(r: ReturnType<typeof replace>) {
  if (!r.ok) throw new Error(`expected a landing, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}
const code = (r: ReturnType<typeof replace>): string => (r.ok ? `landed:${r.value.rung}` : r.error.code);

describe('replace: ladder and gates', () => {
  it('lists the rungs strict to loose, opencode order first', () => {
    expect(RUNG_NAMES.slice(0, 9)).toEqual([
      'simple',
      'line-trimmed',
      'block-anchor',
      'whitespace-normalized',
      'indentation-flexible',
      'escape-normalized',
      'trimmed-boundary',
      'context-aware',
      'multi-occurrence',
    ]);
  });

  it('reports offsets in the raw input (BOM and CRs counted) and 1-based lines', () => {
    const file = '\uFEFFa\r\nbb\r\ncc\r\n';
    const r = landed(replace(file, 'cc', 'dd'));
    expect([r.start, r.end, r.startLine, r.endLine]).toEqual([8, 10, 3, 3]);
    expect(r.content).toBe('\uFEFFa\r\nbb\r\ndd\r\n');
  });

  it('keeps a mixed-ending file byte-identical outside the span', () => {
    const file = 'one\r\ntwo\nthree\r\n';
    expect(landed(replace(file, 'two\nthree', 'TWO\nTHREE')).content).toBe('one\r\nTWO\nTHREE\r\n');
  });

  it('answers already_applied when oldString is gone but newString stands in one place', () => {
    const file = 'def f():\n    return max(0, x)\n';
    const r = replace(file, '    return x', '    return max(0, x)');
    expect(code(r)).toBe('already_applied');
    if (!r.ok) expect(r.error.data).toEqual({ startLine: 2, endLine: 2 });
  });

  it("does not claim already_applied when oldString's own lines point somewhere else", () => {
    const file = 'def a():\n    setup()\n    run(1)\n\ndef b():\n    prepare()\n    run(2)\n';
    // newString stands in b(), but oldString's context line `setup()` says the edit was meant for a()
    expect(code(replace(file, '    setup()\n    run(0)', '    prepare()\n    run(2)'))).toBe('not_found');
    expect(code(replace(file, '    prepare()\n    run(0)', '    prepare()\n    run(2)'))).toBe('already_applied');
  });

  it('does not claim already_applied when newString is a piece of oldString (a deletion)', () => {
    expect(code(replace('keep\nother\n', 'keep\ngone', 'keep'))).toBe('not_found');
  });

  it('reports search_budget, never a silent not_found, when the work limit is hit', () => {
    const block = (tag: string) => `function ${tag}() {\n  step("${tag}-one")\n  step("${tag}-two")\n}\n`;
    const file = Array.from({ length: 40 }, (_, i) => block(`f${i}`)).join('');
    const old = 'function f7() {\n  step("f7-once")\n  step("f7-twice")\n}';
    expect(code(replace(file, old, 'x', { budget: 5 }))).toBe('search_budget');
    expect(code(replace(file, old, 'x'))).toBe('landed:block-anchor');
  });

  it('gives not_found the closest region with its lines and similarity', () => {
    const file = 'a = 1\nb = 2\nc = 3\nd = 4\n';
    const r = replace(file, 'b = 2\nc = 30\nzz', 'x');
    expect(code(r)).toBe('not_found');
    if (!r.ok) {
      expect(r.error.data).toMatchObject({ startLine: 2, endLine: 4 });
      expect(r.error.hint).toMatch(/read the file again/i);
    }
  });

  it('lands on the whole-word place when the other occurrence sits inside a longer word it would change', () => {
    expect(landed(replace('subtotal = 0\ntotal = 0\n', 'total = 0', 'sum = 0')).content).toBe(
      'subtotal = 0\nsum = 0\n',
    );
    // a replacement that keeps the cut word intact fits inside it too: two places, refused
    expect(code(replace('subtotal = 0\ntotal = 0\n', 'total = 0', 'total = 1'))).toBe('ambiguous');
  });

  it('replaceAll skips occurrences inside longer words', () => {
    const r = landed(replace('count + account + count\n', 'count', 'n', { replaceAll: true }));
    expect(r.content).toBe('n + account + n\n');
    expect(r.replacements).toBe(2);
  });

  it("refuses an oldString holding Landfall's read-tool cut marker", () => {
    const long = 'x'.repeat(2500);
    const file = `a\n${long}\nb\n`;
    const shown = `a\n${long.slice(0, 2000)}… [line cut: 2500 characters in all]\nb`;
    expect(code(replace(file, shown, 'a\nb'))).toBe('not_found');
  });

  it('a fuzzy landing that would write the same bytes is no_change', () => {
    expect(code(replace('    x = 1\n', '  x = 1', '    x = 1'))).toBe('no_change');
  });

  it('deleting a whitespace-tolerant block takes its line break with it', () => {
    expect(landed(replace('a\n    b\nc\n', '  b\n', '')).content).toBe('a\nc\n');
    expect(landed(replace('a\n  b\nc\n', '    b\n', '')).content).toBe('a\nc\n');
  });

  it("an oldString matching from inside the indentation is written in the file's indentation frame", () => {
    expect(landed(replace('if x:\n        return a\n', '    return a', '    return b')).content).toBe(
      'if x:\n        return b\n',
    );
    expect(landed(replace('if x:\n        return a\n', '    return a', '        return b')).content).toBe(
      'if x:\n        return b\n',
    );
  });

  it('describes exact and fuzzy landings differently, with the line range', () => {
    const exact = landed(replace('x\ny\n', 'y', 'z'));
    expect(describeLanding(exact)).toBe('Edited line 2 (rung simple, exact match).');
    const fuzzy = landed(replace('x\n  y\n', '    y', '    z'));
    expect(describeLanding(fuzzy)).toMatch(/^Edited line 2 \(NOT an exact match: rung line-trimmed/);
  });

  it('applyEdits reports each edit by its index when one fails, and lands nothing', () => {
    const r = applyEdits('a\nb\n', [
      { oldString: 'a', newString: 'A' },
      { oldString: 'zzz', newString: 'Z' },
    ]);
    expect(r.ok ? 'landed' : [r.error.code, r.error.data?.edit]).toEqual(['not_found', 1]);
  });
});

describe('the landing value', () => {
  it('counts lines on first read; as JSON and as plain data it carries every field, never the file it came from', () => {
    const r = landed(replace('a\nb\nc\nb2\n', 'c\n', 'C\n'));
    expect([r.content, r.rung, r.start, r.end, r.startLine, r.endLine, r.replacements]).toEqual([
      'a\nb\nC\nb2\n',
      'simple',
      4,
      6,
      3,
      3,
      1,
    ]);
    const json = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
    expect(json).toEqual({
      content: 'a\nb\nC\nb2\n',
      rung: 'simple',
      start: 4,
      end: 6,
      startLine: 3,
      endLine: 3,
      replacements: 1,
      spans: [{ start: 4, end: 6, startLine: 3, endLine: 3 }],
      corrections: [],
    });
    expect(Object.keys(r).sort()).toEqual(['content', 'corrections', 'end', 'replacements', 'rung', 'start']);
  });
});
