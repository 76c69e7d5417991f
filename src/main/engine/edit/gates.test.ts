/**
 * The gates on their own, including the span gate, which no rung of the ladder can reach today (every tolerant
 * rung bounds its window) and which stays as the backstop that refuses a swallowed region (fixtures/bugs/README.md B07).
 */
import { describe, expect, it } from 'vitest';
import type { Candidate } from './types';
import { alignToIndentation, cutsToken, keepsTokens, passesFidelityGate, passesSpanGate } from './gates';

const candidate = (over: Partial<Candidate>): Candidate => ({
  start: 0,
  end: 0,
  rung: 'block-anchor',
  matched: '',
  lineAligned: true,
  distortions: [],
  ...over,
});

describe('gates', () => {
  it('span gate: a tolerant rung may not cover far more lines or characters than oldString', () => {
    const matched = 'a {\n  b: 1;\n}\n/* end */';
    const swallowed = ['a {', '  b: 1;', '}', ...Array.from({ length: 500 }, (_, i) => `.r${i} {}`), '/* end */'].join(
      '\n',
    );
    expect(passesSpanGate(candidate({ matched }), swallowed)).toBe(false);
    expect(passesSpanGate(candidate({ matched }), 'a {\n      b:   1;\n}\n/* end */')).toBe(true);
    expect(passesSpanGate(candidate({ matched, rung: 'simple' }), swallowed)).toBe(true);
  });

  it('fidelity gate: one line below the floor refuses the candidate', () => {
    expect(passesFidelityGate(candidate({ minLineSimilarity: 0.3 }))).toBe(false);
    expect(passesFidelityGate(candidate({ minLineSimilarity: 0.9 }))).toBe(true);
    expect(passesFidelityGate(candidate({}))).toBe(true);
  });

  it('token boundary: a cut word refuses unless the replacement keeps the cut fragment', () => {
    const content = 'port = 9000\n';
    expect(cutsToken(content, 0, 9)).toBe(true);
    expect(keepsTokens(content, 0, 9, 'port = 8080')).toBe(false);
    expect(keepsTokens(content, 0, 9, 'PORT = 90')).toBe(true);
    expect(keepsTokens(content, 0, 9, 'PORT = 900')).toBe(false);
    expect(cutsToken(content, 0, 11)).toBe(false);
  });

  it('an oldString starting inside the indentation is widened to the line start', () => {
    const content = 'x\n    y = 1\n';
    const c = alignToIndentation(
      content,
      candidate({ start: 4, end: 11, matched: '  y = 1', lineAligned: false, rung: 'simple' }),
    );
    expect([c.start, c.lineAligned]).toEqual([2, true]);
    const mid = candidate({ start: 6, end: 11, matched: 'y = 1', lineAligned: false, rung: 'simple' });
    expect(alignToIndentation(content, mid)).toBe(mid);
  });
});
