/**
 * Landings that were wrong, rebuilt from the descriptions of real calls (not in the corpus; bytes made up here):
 * - a line-shaped oldString (whole lines, ending in a line break) matched by a trimming rung as the PREFIX of a
 *   longer line, so only that prefix was replaced and the line lost its trailing comma;
 * - a retry of an edit that had already landed, landed again by a similarity rung, so a line was duplicated;
 * - a place found at a whitespace rung that won although a later cosmetic rung (quotes, dashes, spaces) fitted
 *   another line: two lines the model could equally mean.
 * Each rule is then held for the whole class by property tests (properties-landings.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { replace } from './index';

const code = (r: ReturnType<typeof replace>): string => (r.ok ? `landed:${r.value.rung}` : r.error.code);

describe('a line-shaped oldString lands only on whole lines', () => {
  it('never replaces the prefix of a longer line (the comma the model forgot stays a refusal)', () => {
    const file = 'const calls = [\n  foo(1),\n  bar(2),\n];\n';
    const r = replace(file, '  foo(1)\n', '  foo(10)\n  baz(3)\n');
    expect(code(r)).toBe('not_found');
    if (!r.ok) {
      expect(r.error.message).toMatch(/whole line/);
      expect(r.error.data).toMatchObject({ startLine: 2, endLine: 2 });
    }
  });

  it('never lands a whole-line oldString in the middle of another line, at any rung', () => {
    const file = 'x = f(a, b)\ny = 2\n';
    expect(code(replace(file, 'b)\n', 'c)\n'))).toBe('not_found');
    expect(code(replace(file, '  b)\n', '  c)\n'))).toBe('not_found');
    expect(code(replace(file, 'f(a,  b)\n', 'g(a, b)\n'))).toBe('not_found');
  });

  it('a block of lines recalled with a tolerance never ends on the front of a longer line', () => {
    // trimmed-boundary cut the extra indentation and found the block with `foo(1)` as the start of `foo(1),`:
    // the comma then moved behind the added line
    const file = 'if (ok) {\n    x = 1\n  foo(1),\n}\n';
    const r = replace(file, '      x = 1\n  foo(1)', '      x = 1\n  foo(1)\n  // added');
    expect(r.ok ? r.value.content : r.error.code).toBe('not_found');
    // the same block copied byte for byte is the model's own choice of bytes and lands
    expect(code(replace(file, 'x = 1\n  foo(1)', 'x = 2\n  foo(1)'))).toBe('landed:simple');
  });

  it('still lands whole lines found after their indentation, or with trailing spaces the model left out', () => {
    expect(replace('if x:\n    y = 1\n', 'y = 1\n', 'y = 2\n')).toMatchObject({
      ok: true,
      value: { content: 'if x:\n    y = 2\n' },
    });
    expect(replace('a = 1   \nb = 2\n', '\na = 1\n', '\na = 3\n')).toMatchObject({
      ok: true,
      value: { content: 'a = 3   \nb = 2\n' },
    });
  });
});

describe('a retry of an edit that already landed never lands again', () => {
  const original = [
    'function total(items) {',
    '  let sum = 0;',
    '  for (const item of items) sum += item.cost;',
    '  return sum;',
    '}',
    '',
  ].join('\n');
  const oldString = '  let sum = 0;\n  for (const item of items) sum += item.cost;\n  return sum;';
  const newString =
    '  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n  // prices include tax';

  it('the first call lands exactly; the retry is answered already_applied and writes nothing', () => {
    const first = replace(original, oldString, newString);
    expect(code(first)).toBe('landed:simple');
    if (!first.ok) return;
    const retry = replace(first.value.content, oldString, newString);
    // block-anchor would fit the three lines again (item.cost ~ item.price) and add the comment a second time
    expect(code(retry)).toBe('already_applied');
    if (!retry.ok) expect(retry.error.data).toMatchObject({ startLine: 2, endLine: 5 });
  });

  it('a retry of a whitespace-tolerant landing is already_applied too (it would add the comment twice)', () => {
    const first = replace('x = 1\ny = 2\n', 'x  = 1', 'x = 1  # one');
    expect(code(first)).toBe('landed:whitespace-normalized');
    if (!first.ok) return;
    expect(first.value.content).toBe('x = 1  # one\ny = 2\n');
    expect(code(replace(first.value.content, 'x  = 1', 'x = 1  # one'))).toBe('already_applied');
  });

  it('a retry after an exact landing is not landed on a look-alike elsewhere (already_applied instead)', () => {
    const file = 'x = load()\nprint(x)\nx  =  load()\n';
    const first = replace(file, 'x = load()', 'x = fetch()');
    expect(first.ok && first.value.content).toBe('x = fetch()\nprint(x)\nx  =  load()\n');
    if (!first.ok) return;
    const retry = replace(first.value.content, 'x = load()', 'x = fetch()');
    expect(code(retry)).toBe('already_applied');
    if (!retry.ok) expect(retry.error.data).toMatchObject({ startLine: 1, endLine: 1 });
  });
});

describe('a block recalled in another indentation is written in the file indentation, level by level', () => {
  const file = 'def f():\n    x = 1\n    y = 2\n    return x + y\n';
  const oldString = 'def f():\n  x = 1\n  y = 2\n';
  const newString = 'def f():\n  x = 1\n  y = 2\n  z = 3\n';

  it('2 spaces per level in the model, 4 in the file: the added line gets 4, the others stay as they were', () => {
    const r = replace(file, oldString, newString);
    expect(r.ok ? r.value.content : r.error.code).toBe('def f():\n    x = 1\n    y = 2\n    z = 3\n    return x + y\n');
    if (!r.ok) return;
    expect(r.value.corrections).toContain("newString's indentation rebased to the file's");
    const retry = replace(r.value.content, oldString, newString);
    expect(code(retry)).toBe('already_applied');
  });

  it('a deeper added line follows the file step, and tabs stand for the model spaces', () => {
    const tabs = 'if a:\n\tb()\n\tc()\n';
    const r = replace(tabs, 'if a:\n  b()\n  c()\n', 'if a:\n  b()\n  if d:\n    e()\n  c()\n');
    expect(r.ok ? r.value.content : r.error.code).toBe('if a:\n\tb()\n\tif d:\n\t\te()\n\tc()\n');
  });

  it('levels that do not map one to one are refused (indentation_conflict), never written mixed', () => {
    const r = replace(file, 'def f():\n  x = 1\n      y = 2\n', 'def f():\n  x = 1\n      y = 2\n  z = 3\n');
    expect(code(r)).toBe('indentation_conflict');
    if (!r.ok) expect(r.error.data).toMatchObject({ rung: 'line-trimmed', startLine: 1, endLine: 3 });
  });
});

describe('a retried exact append is already_applied', () => {
  it('oldString now stands only inside newString: the second identical call writes nothing', () => {
    const first = replace('x = 1\ny = 2\n', 'x = 1\ny = 2\n', 'x = 1\ny = 2\nz = 3\n');
    expect(first.ok ? first.value.content : first.error.code).toBe('x = 1\ny = 2\nz = 3\n');
    if (!first.ok) return;
    const retry = replace(first.value.content, 'x = 1\ny = 2\n', 'x = 1\ny = 2\nz = 3\n');
    expect(code(retry)).toBe('already_applied');
    if (!retry.ok) expect(retry.error.data).toMatchObject({ startLine: 1, endLine: 3 });
  });

  it('an occurrence of oldString outside newString is still a place the edit means (it lands there)', () => {
    const r = replace('x = 1\ny = 2\nz = 3\n\nx = 1\ny = 2\nw = 0\n', 'x = 1\ny = 2\nw', 'x = 1\ny = 2\nz = 3\nw');
    expect(r.ok ? r.value.content : r.error.code).toBe('x = 1\ny = 2\nz = 3\n\nx = 1\ny = 2\nz = 3\nw = 0\n');
  });

  it('in a CRLF file too', () => {
    const r = replace('a()\r\nb()\r\n', 'a()', 'a()\r\nb()');
    expect(code(r)).toBe('already_applied');
  });
});

describe('uniqueness is judged across every cosmetic rung', () => {
  it('a whitespace fit and a quote fit on two lines are two places: ambiguous, both listed', () => {
    const file = 'a = 1\nmsg  =  "it\'s done"\nb = 2\nmsg = "it\u2019s done"\n';
    const r = replace(file, 'msg = "it\'s done"', 'msg = "done"');
    expect(code(r)).toBe('ambiguous');
    if (!r.ok) {
      expect(r.error.data).toMatchObject({
        count: 2,
        matches: [
          { startLine: 2, endLine: 2 },
          { startLine: 4, endLine: 4 },
        ],
      });
      expect(r.error.message).toMatch(/whitespace-normalized.*unicode-punctuation/);
    }
  });

  it('an indentation fit and a dash fit are two places as well', () => {
    const file = 'range = "1-5"  \nrange = "1\u20135"\n';
    expect(code(replace(file, 'range = "1-5"\n', 'range = "1-6"\n'))).toBe('ambiguous');
  });

  it('one place found by several rungs (line-trimmed, whitespace-normalized, indentation-flexible) is one place', () => {
    const r = replace('a = 1\nb = 2\nc = 3\n', '  a = 1\n  b = 2', '  a = 1\n  b = 20');
    expect(r.ok && [r.value.rung, r.value.content]).toEqual(['line-trimmed', 'a = 1\nb = 20\nc = 3\n']);
  });

  it('a place that needs only cosmetic tolerance is not made ambiguous by a drifted look-alike', () => {
    const file = 'if (x) {\n  return 1;\n}\nif (x) {\n  return 2;\n}\n';
    const r = replace(file, '  if (x) {\n    return 1;\n  }', '  if (x) {\n    return 3;\n  }');
    expect(r.ok && r.value.content).toBe('if (x) {\n  return 3;\n}\nif (x) {\n  return 2;\n}\n');
  });

  it('a drifted block with a quote-only fit elsewhere is ambiguous (the quote fit may well be the one meant)', () => {
    const file = 'const xs = [\n  "a",\n  "c",\n];\nconst xs = [\n  \u201ca\u201d,\n  \u201cb\u201d,\n];\n';
    const r = replace(file, 'const xs = [\n  "a",\n  "b",\n];', 'const xs = [];');
    expect(code(r)).toBe('ambiguous');
    if (!r.ok) expect(r.error.message).toMatch(/block-anchor.*unicode-punctuation/);
  });
});
