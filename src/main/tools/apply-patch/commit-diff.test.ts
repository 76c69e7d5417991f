/** The commit diff built from the plan's alignment, against jsdiff: same shape, valid on the real bytes. */
import { applyPatch as jsdiffApply } from 'diff';
import { describe, expect, it } from 'vitest';
import { commitDiff } from '../../fs';
import { planDiff } from './commit-diff';
import { parsePatch } from '../../engine/patch/parse';
import { updateLines } from '../../engine/patch/plan';
import type { UpdateOperation } from '../../engine/patch/types';

function landed(before: string, ...hunk: string[]) {
  const parsed = parsePatch(['*** Begin Patch', '*** Update File: f.txt', ...hunk, '*** End Patch'].join('\n'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const r = updateLines(parsed.value.operations[0] as UpdateOperation, before);
  if (!r.ok) throw new Error(r.error.message);
  return { after: r.value.text, change: planDiff('f.txt', before, r.value.text, r.value.edits) };
}

describe('planDiff', () => {
  it("equals jsdiff's commit diff for a plain edit", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const { after, change } = landed(
      before,
      '@@',
      ' line 4',
      '-line 5',
      '+LINE 5',
      '@@',
      ' line 14',
      '+inserted',
      ' line 15',
    );
    expect(change).toEqual(commitDiff('f.txt', before, after));
  });

  it('a "-x / +x" pair the model wrote is not counted as a change', () => {
    const { change } = landed('a\nb\nc\n', '@@', '-a', '-b', '+a', '+B', ' c');
    expect([change.additions, change.deletions]).toEqual([1, 1]);
  });

  it.each([
    ['CRLF file', 'a\r\nb\r\nc\r\n', ['@@', ' a', '-b', '+B', ' c']],
    ['no final newline, last line edited', 'a\nb\nc', ['@@', ' b', '-c', '+C']],
    ['no final newline, line appended', 'a\nb', ['@@', '+c']],
    ['no final newline, last line deleted', 'a\nb\nc', ['@@', ' b', '-c']],
    ['empty file, lines added', '', ['@@', '+x', '+y']],
  ])('is a valid unified diff for a %s', (_name, before, hunk) => {
    const { after, change } = landed(before, ...hunk);
    expect(jsdiffApply(before, change.patch ?? '')).toBe(after);
    const reference = commitDiff('f.txt', before, after);
    expect([change.additions, change.deletions]).toEqual([reference.additions, reference.deletions]);
  });

  it('a new file and a removed file', () => {
    expect(planDiff('n.txt', '', 'x\ny\n')).toEqual(commitDiff('n.txt', '', 'x\ny\n'));
    expect(planDiff('n.txt', 'x\ny\n', '')).toMatchObject({ additions: 0, deletions: 2 });
    expect(jsdiffApply('x\ny\n', planDiff('n.txt', 'x\ny\n', '').patch ?? '')).toBe('');
  });
});
