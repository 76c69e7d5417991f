/**
 * ReviewService on real temp projects, a real snapshot store and a real session database (review/fixture.ts).
 * Every check compares the exact bytes on disk.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffOf, reviewFixture, stepTarget, type Fixture } from './review/fixture';

const seq = (n: number, edits: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => edits[i + 1] ?? String(i + 1)).join('\n') + '\n';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const disk = (f: Fixture, p: string): Promise<string> => readFile(join(f.root, p), 'utf8');

describe('per-hunk reject of an old step while later steps stay', () => {
  it('reverse-applies exactly one hunk of step 1 after steps 2 and 3 changed the file elsewhere', async () => {
    fx = await reviewFixture({ 'r.txt': seq(30) }, [
      { tool: 'edit', files: { 'r.txt': seq(30, { 2: 'two', 15: 'fifteen' }) } },
      { tool: 'edit', files: { 'r.txt': seq(30, { 2: 'two', 15: 'fifteen', 28: 'twenty-eight' }) } },
      {
        tool: 'write',
        files: { 'r.txt': seq(30, { 2: 'two', 5: 'five', 15: 'fifteen', 28: 'twenty-eight' }), 'new.txt': 'hello\n' },
      },
    ]);
    const d = await diffOf(fx, stepTarget(fx, 0));
    expect(d.files.map((f) => [f.path, f.status, f.additions, f.deletions])).toEqual([['r.txt', 'modified', 2, 2]]);
    const hunks = d.files[0]!.hunks;
    expect(hunks.map((h) => [h.newStart, h.lines])).toEqual([
      [2, ['-2', '+two']],
      [15, ['-15', '+fifteen']],
    ]);
    const r = await fx.review.decide({
      sessionId: fx.sessionId,
      target: stepTarget(fx, 0),
      action: 'reject',
      hunkIds: [hunks[1]!.id],
    });
    expect(r.ok && r.value.decision.written).toEqual(['r.txt']);
    expect(await disk(fx, 'r.txt')).toBe(seq(30, { 2: 'two', 5: 'five', 28: 'twenty-eight' }));
    expect(await disk(fx, 'new.txt')).toBe('hello\n');
    const after = await diffOf(fx, stepTarget(fx, 0));
    expect(after.files[0]!.hunks.map((h) => h.state)).toEqual(['pending', 'rejected']);
  });

  it('answers conflict naming the lines when a later step changed the hunk, and writes nothing', async () => {
    fx = await reviewFixture({ 'r.txt': seq(10) }, [
      { tool: 'edit', files: { 'r.txt': seq(10, { 4: 'four' }) } },
      { tool: 'edit', files: { 'r.txt': seq(10, { 4: 'FOUR!' }) } },
    ]);
    const before = await disk(fx, 'r.txt');
    const h = (await diffOf(fx, stepTarget(fx, 0))).files[0]!.hunks[0]!;
    const eventsBefore = fx.review.timeline(fx.sessionId).length;
    const r = await fx.review.decide({
      sessionId: fx.sessionId,
      target: stepTarget(fx, 0),
      action: 'reject',
      hunkIds: [h.id],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('conflict');
    expect(r.error.data?.conflicts).toEqual([
      { hunkId: h.id, path: 'r.txt', fromLine: 4, toLine: 4, expected: ['four'], reason: 'lines_changed' },
    ]);
    expect(r.error.message).toContain('r.txt lines 4–4');
    expect(await disk(fx, 'r.txt')).toBe(before);
    expect(fx.review.timeline(fx.sessionId)).toHaveLength(eventsBefore);
  });
});

describe('B39 — Reject All leaves no hunk behind', () => {
  const agent = seq(30, { 2: 'two', 15: 'fifteen', 28: 'twenty-eight' });
  it('Reject All of the step gives back `seq 1 30` byte for byte', async () => {
    fx = await reviewFixture({ 'r.txt': seq(30) }, [{ tool: 'edit', files: { 'r.txt': agent } }]);
    expect((await diffOf(fx, stepTarget(fx, 0))).files[0]!.hunks).toHaveLength(3);
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(r.ok && r.value.decision.hunkIds).toHaveLength(3);
    expect(await disk(fx, 'r.txt')).toBe(seq(30));
    const left = await diffOf(fx, stepTarget(fx, 0));
    expect(left.files[0]!.hunks.every((h) => h.state === 'rejected')).toBe(true);
    const again = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(!again.ok && again.error.code).toBe('no_change');
  });

  it('variant A: rejecting only the middle hunk leaves lines 2 and 28 changed', async () => {
    fx = await reviewFixture({ 'r.txt': seq(30) }, [{ tool: 'edit', files: { 'r.txt': agent } }]);
    const hunks = (await diffOf(fx, stepTarget(fx, 0))).files[0]!.hunks;
    await fx.review.decide({
      sessionId: fx.sessionId,
      target: stepTarget(fx, 0),
      action: 'reject',
      hunkIds: [hunks[1]!.id],
    });
    expect(await disk(fx, 'r.txt')).toBe(seq(30, { 2: 'two', 28: 'twenty-eight' }));
  });

  it('variant B: keep hunk 1, then Reject All, leaves only line 2 changed (per file)', async () => {
    fx = await reviewFixture({ 'r.txt': seq(30), 'other.txt': 'x\n' }, [
      { tool: 'edit', files: { 'r.txt': agent, 'other.txt': 'y\n' } },
    ]);
    const t = stepTarget(fx, 0);
    const hunks = (await diffOf(fx, t)).files.find((f) => f.path === 'r.txt')!.hunks;
    const keep = await fx.review.decide({
      sessionId: fx.sessionId,
      target: t,
      action: 'accept',
      hunkIds: [hunks[0]!.id],
    });
    expect(keep.ok && keep.value.decision.written).toEqual([]);
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: t, action: 'reject', path: 'r.txt' });
    expect(r.ok && r.value.decision.hunkIds).toEqual([hunks[1]!.id, hunks[2]!.id]);
    expect(await disk(fx, 'r.txt')).toBe(seq(30, { 2: 'two' }));
    expect(await disk(fx, 'other.txt')).toBe('y\n');
  });
});
