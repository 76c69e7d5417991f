/**
 * Rung 8, context-aware: a window of exactly oldString's line count, first and last lines equal (trimmed), at
 * least half of the middle lines equal; the differing ones scored, the lowest score kept for the fidelity gate.
 */
import { describe, expect, it } from 'vitest';
import { contextAware } from './context-aware';
import { candidatesOf, spansOf } from './rung-test-kit';

const file = ['render() {', '  const a = load();', '  const b = parse(a);', '  draw(b);', '  flush();', '}', ''].join(
  '\n',
);

describe('rung context-aware', () => {
  it('finds a window whose middle differs in one drifted line, with that line’s similarity', () => {
    const old = ['render() {', '  const a = load();', '  const b = parse(a)', '  draw(b);', '  flush();', '}'];
    const [c] = candidatesOf(contextAware, file, old.join('\n'));
    expect(file.slice(c?.start, c?.end)).toBe(file.slice(0, -1));
    expect(c?.minLineSimilarity).toBeGreaterThanOrEqual(0.75);
  });

  it('finds nothing when more than half of the middle lines differ', () => {
    const old = ['render() {', '  const a = load()', '  const b = parse(a)', '  draw(b)', '  flush();', '}'];
    expect(spansOf(contextAware, file, old.join('\n'))).toEqual([]);
  });

  it('finds nothing when a differing line is invented, not drifted (below the per-line floor)', () => {
    const old = ['render() {', '  const a = load();', '  window.alert("hi");', '  draw(b);', '  flush();', '}'];
    expect(spansOf(contextAware, file, old.join('\n'))).toEqual([]);
  });

  it('finds nothing when the line count differs or an anchor line does not match', () => {
    expect(spansOf(contextAware, file, 'render() {\n  const a = load();\n  draw(b);\n  flush();\n}')).toEqual([]);
    expect(
      spansOf(contextAware, file, 'render(x) {\n  const a = load();\n  const b = parse(a);\n  draw(b);\n  flush();\n}'),
    ).toEqual([]);
  });
});
