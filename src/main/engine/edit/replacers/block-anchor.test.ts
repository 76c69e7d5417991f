/**
 * Rung 3, block-anchor: first and last lines anchor a window of about oldString's size (±25 %); the middle lines
 * may have drifted, each by little (per-line floor 0.75, mean ≥ 0.65), and must pair one-to-one with the file's.
 */
import { describe, expect, it } from 'vitest';
import { replace } from '../index';
import { blockAnchor } from './block-anchor';
import { candidatesOf, spansOf } from './rung-test-kit';

const file = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price;',
  '  return sum;',
  '}',
  '',
].join('\n');

describe('rung block-anchor', () => {
  it('finds a block whose middle lines drifted a little, with its lowest line similarity', () => {
    const old = [
      'function total(items) {',
      '  let sum = 0',
      '  for (const item of items) sum += item.prices;',
      '  return sum',
      '}',
    ].join('\n');
    const [c] = candidatesOf(blockAnchor, file, old);
    expect(file.slice(c?.start, c?.end)).toBe(file.slice(0, -1));
    expect(c?.rung).toBe('block-anchor');
    expect(c?.minLineSimilarity).toBeGreaterThanOrEqual(0.75);
    expect(c?.minLineSimilarity).toBeLessThan(1);
  });

  it('finds nothing for fewer than three lines, or with a blank anchor', () => {
    expect(spansOf(blockAnchor, file, 'function total(items) {\n}')).toEqual([]);
    expect(spansOf(blockAnchor, file, '\n  let sum = 0;\n  return sum;\n}')).toEqual([]);
  });

  it('finds nothing when a middle line is invented rather than drifted (below the per-line floor)', () => {
    const old = [
      'function total(items) {',
      '  let sum = 0;',
      '  throw new Error("unreachable");',
      '  return sum;',
      '}',
    ];
    expect(spansOf(blockAnchor, file, old.join('\n'))).toEqual([]);
  });

  it('finds nothing when the window holds a line oldString does not have (non-blank lines must pair)', () => {
    const small = 'fn a() {\n  one();\n  two();\n  three();\n}\n';
    expect(spansOf(blockAnchor, small, 'fn a() {\n  one();\n  three();\n}')).toEqual([]);
    expect(replace(small, 'fn a() {\n  one();\n  three();\n}', 'fn a() {}')).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('finds nothing when the anchors are further apart than ±25 % of oldString', () => {
    const long = ['begin', ...Array.from({ length: 12 }, (_, i) => `  step(${i});`), 'end', ''].join('\n');
    expect(spansOf(blockAnchor, long, 'begin\n  step(0);\n  step(1);\nend')).toEqual([]);
  });
});
