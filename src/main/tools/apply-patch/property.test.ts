/**
 * Property: for random (before, after) pairs, a patch built from their line diff with 0–3 context lines
 * lands exactly `after`, or is refused `ambiguous` — never anything else (never a wrong place, never no_match).
 *
 * The builder: jsdiff's structuredPatch with k context lines, each hunk written as `@@` + its lines. A hunk that
 * only inserts (no old lines) would mean "append at end of file" in this format, so when such a hunk is not at
 * the end the patch is rebuilt with at least one context line — the format's own rule, not a weakening.
 * Both sides share one final-newline state (the patch format cannot express a change of it).
 * Each landing's commit diff (commit-diff.ts) must also be a valid unified diff: jsdiff applies it to `before`
 * and gets `after`.
 * Lines come from a small alphabet (with near-duplicates such as 'a' / 'a ' / ' a') so repeats and fuzzy
 * collisions are common.
 */
import fc from 'fast-check';
import { applyPatch as jsdiffApply, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../engine/patch/parse';
import { planDiff } from './commit-diff';
import { updateLines } from '../../engine/patch/plan';
import type { UpdateOperation } from '../../engine/patch/types';

const ALPHABET = ['a', 'a ', ' a', 'b', '}', '', 'c = “x”', 'c = "x"', '*** x', '@@ y'];

function buildPatch(before: string, after: string, context: number): string | undefined {
  const total = before === '' ? 0 : before.split('\n').length - (before.endsWith('\n') ? 1 : 0);
  let sp = structuredPatch('f', 'f', before, after, '', '', { context });
  const insertsMidFile = sp.hunks.some(
    (h) => !h.lines.some((l) => l[0] === '-' || l[0] === ' ') && h.oldStart <= total,
  );
  if (insertsMidFile && context === 0) sp = structuredPatch('f', 'f', before, after, '', '', { context: 1 });
  if (sp.hunks.length === 0) return undefined;
  const body: string[] = ['*** Begin Patch', '*** Update File: f.txt'];
  for (const hunk of sp.hunks) {
    body.push('@@');
    for (const line of hunk.lines) if (!line.startsWith('\\')) body.push(line);
  }
  body.push('*** End Patch');
  return body.join('\n');
}

const fileArb = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 14 });

describe('apply_patch property: a diff-built patch lands exactly or is refused ambiguous', () => {
  it('holds for random before/after pairs with 0–3 context lines', () => {
    const outcomes = { landed: 0, ambiguous: 0 };
    fc.assert(
      fc.property(fileArb, fileArb, fc.boolean(), fc.integer({ min: 0, max: 3 }), (a, b, keepsNewline, context) => {
        // The format cannot say "no final newline"; the engine keeps the file's state, and an empty file has
        // no unterminated line, so lines added to it are terminated (as Add File's are).
        const finalNewline = keepsNewline || a.length === 0;
        // Without a final newline a last '' line would be a final newline after all: end such files with 'z'.
        const join = (lines: string[]): string => {
          if (lines.length === 0) return '';
          const fixed = !finalNewline && lines[lines.length - 1] === '' ? [...lines, 'z'] : lines;
          return fixed.join('\n') + (finalNewline ? '\n' : '');
        };
        const before = join(a);
        const after = join(b);
        const text = buildPatch(before, after, context);
        if (text === undefined) return;
        const parsed = parsePatch(text);
        expect(parsed.ok ? 'ok' : parsed.error.message).toBe('ok');
        if (!parsed.ok) return;
        const r = updateLines(parsed.value.operations[0] as UpdateOperation, before);
        if (r.ok) {
          expect(r.value.text).toBe(after);
          // The commit diff built from the plan's alignment is a valid diff: jsdiff applies it to before → after.
          const change = planDiff('f.txt', before, after, r.value.edits);
          expect(jsdiffApply(before, change.patch ?? '')).toBe(after);
          outcomes.landed++;
        } else {
          expect(r.error.code).toBe('ambiguous');
          outcomes.ambiguous++;
        }
      }),
      { numRuns: 1500, seed: 20261129 },
    );
    // Both outcomes occur: the property exercises real landings and real refusals.
    expect(outcomes.landed).toBeGreaterThan(500);
    expect(outcomes.ambiguous).toBeGreaterThan(10);
  });
});
