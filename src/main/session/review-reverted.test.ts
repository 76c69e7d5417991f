/**
 * Review marks what a revert took off disk (issue 17 §5; review/reverted.ts), on a real temp project, a real
 * snapshot store and a real session database (review/fixture.ts), reverted and unreverted by the session core's own
 * revert (session/revert.ts). Two steps: step 1 edits a.txt line 2; step 2 edits a.txt line 8 and b.txt line 5, then
 * the user keeps step 2's a.txt hunk and rejects its b.txt hunk, and reverts to before step 2.
 * While reverted: step 2 and both decisions are flagged on the timeline; step 2's hunks are `reverted` (the kept one
 * comes back with unrevert, the rejected one stays rejected); against the session start only the line-8 hunk is;
 * Keep / Reject / Undo on them answer `reverted` and write nothing. After unrevert everything is as before the revert.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import type { ReviewDiff, ReviewHunk } from '../../shared/review-schemas';
import { revertTo, unrevert, type RevertDeps } from './revert';
import { Intents } from './intents';
import { diffOf, reviewFixture, stepTarget, type Fixture } from './review/fixture';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const seq = (n: number, edits: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => edits[i + 1] ?? String(i + 1)).join('\n') + '\n';

const text = (f: Fixture, p: string): Promise<string> => readFile(join(f.root, p), 'utf8');

function hunksOf(d: ReviewDiff, path: string): ReviewHunk[] {
  return d.files.find((f) => f.path === path)?.hunks ?? [];
}

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** The fixture after the two steps and the two decisions on step 2 (keep a.txt's hunk, reject b.txt's). */
async function decidedSession(): Promise<{ f: Fixture; deps: RevertDeps; keep: string; reject: string }> {
  const f = await reviewFixture({ 'a.txt': seq(10), 'b.txt': seq(6) }, [
    { tool: 'edit', files: { 'a.txt': seq(10, { 2: 'one' }) } },
    { tool: 'edit', files: { 'a.txt': seq(10, { 2: 'one', 8: 'two' }), 'b.txt': seq(6, { 5: 'bee' }) } },
  ]);
  const t = stepTarget(f, 1);
  const d = await diffOf(f, t);
  const [a] = hunksOf(d, 'a.txt');
  const [b] = hunksOf(d, 'b.txt');
  const base = { sessionId: f.sessionId, target: t };
  const keep = must(await f.review.decide({ ...base, action: 'accept', hunkIds: [a!.id] })).decision.decisionId;
  const reject = must(await f.review.decide({ ...base, action: 'reject', hunkIds: [b!.id] })).decision.decisionId;
  const intents = new Intents(f.sessions.db, join(f.dataDir, 'journal'));
  const deps: RevertDeps = { store: f.sessions, snapshot: f.snapshots, busy: () => false, intents };
  return { f, deps, keep, reject };
}

/** The part id of step 2's step-start: the revert boundary "before step 2". */
function step2Start(f: Fixture): string {
  const starts = f.sessions.messages(f.sessionId).flatMap((m) => m.parts.filter((p) => p.type === 'step-start'));
  return starts[1]!.id;
}

describe('review marks what a revert took off disk', () => {
  it('flags the reverted step and its decisions on the timeline, and the hunks of its diff', async () => {
    const { f, deps, keep, reject } = await decidedSession();
    fx = f;
    expect(await text(f, 'b.txt')).toBe(seq(6));
    must(await revertTo(deps, f.sessionId, { messageId: f.messageId, partId: step2Start(f) }));
    expect([await text(f, 'a.txt'), await text(f, 'b.txt')]).toEqual([seq(10, { 2: 'one' }), seq(6)]);

    const timeline = f.review.timeline(f.sessionId);
    expect(timeline.map((e) => [e.kind, e.reverted === true])).toEqual([
      ['step', false],
      ['step', true],
      ['decision', true],
      ['decision', true],
    ]);
    expect(timeline.slice(2).map((e) => e.id)).toEqual([keep, reject]);

    const step2 = await diffOf(f, stepTarget(f, 1));
    expect(hunksOf(step2, 'a.txt').map((h) => [h.state, h.reverted])).toEqual([['accepted', 'unrevert_brings_back']]);
    expect(hunksOf(step2, 'b.txt').map((h) => [h.state, h.reverted])).toEqual([['rejected', 'stays_rejected']]);

    const step1 = await diffOf(f, stepTarget(f, 0));
    expect(hunksOf(step1, 'a.txt').map((h) => [h.newStart, h.reverted])).toEqual([[2, undefined]]);

    const fromStart = await diffOf(f, stepTarget(f, 1, 'start'));
    expect(hunksOf(fromStart, 'a.txt').map((h) => [h.newStart, h.state, h.reverted])).toEqual([
      [2, 'pending', undefined],
      [8, 'pending', 'unrevert_brings_back'],
    ]);
    // b.txt's change came in step 2, after the boundary: against the start it is reverted as a whole.
    expect(hunksOf(fromStart, 'b.txt').map((h) => h.reverted)).toEqual(['unrevert_brings_back']);
    // A diff against the disk now is never marked: its "to" is the work tree as it is.
    const now = await diffOf(f, stepTarget(f, 1, 'now'));
    expect(now.files.flatMap((x) => x.hunks).filter((h) => h.reverted !== undefined)).toEqual([]);
  });

  it('refuses Keep, Reject and Undo on reverted hunks with `reverted` and writes nothing; other hunks still decide', async () => {
    const { f, deps, keep, reject } = await decidedSession();
    fx = f;
    must(await revertTo(deps, f.sessionId, { messageId: f.messageId, partId: step2Start(f) }));
    const disk = async (): Promise<string[]> => [await text(f, 'a.txt'), await text(f, 'b.txt')];
    const before = await disk();
    const start = stepTarget(f, 1, 'start');
    const line8 = hunksOf(await diffOf(f, start), 'a.txt')[1]!;
    const base = { sessionId: f.sessionId, target: start };
    const codes: string[] = [];
    for (const action of ['accept', 'reject'] as const) {
      const r = await f.review.decide({ ...base, action, hunkIds: [line8.id] });
      codes.push(r.ok ? 'ok' : r.error.code);
      if (!r.ok) expect(r.error.data).toEqual({ hunkIds: [line8.id] });
    }
    for (const decisionId of [keep, reject, undefined]) {
      const r = await f.review.undo({ sessionId: f.sessionId, ...(decisionId ? { decisionId } : {}) });
      codes.push(r.ok ? 'ok' : r.error.code);
    }
    const wholeB = await f.review.decide({ ...base, action: 'reject', path: 'b.txt' });
    codes.push(wholeB.ok ? 'ok' : wholeB.error.code);
    expect(codes).toEqual(['reverted', 'reverted', 'reverted', 'reverted', 'reverted', 'reverted']);
    expect(await disk()).toEqual(before);
    expect(f.review.timeline(f.sessionId)).toHaveLength(4);

    // Every pending hunk of a.txt against the start: only line 2's (before the boundary) is decided.
    const line2 = hunksOf(await diffOf(f, start), 'a.txt')[0]!;
    const all = must(await f.review.decide({ ...base, action: 'reject', path: 'a.txt' }));
    expect(all.decision.hunkIds).toEqual([line2.id]);
    expect(await text(f, 'a.txt')).toBe(seq(10));
    const after = await diffOf(f, start);
    expect(hunksOf(after, 'a.txt').map((h) => [h.state, h.reverted])).toEqual([
      ['rejected', undefined],
      ['pending', 'unrevert_brings_back'],
    ]);
    // That decision was made while reverted, on a hunk still on disk: not reverted, and it undoes.
    const flags = f.review.timeline(f.sessionId).map((e) => e.reverted === true);
    expect(flags).toEqual([false, true, true, true, false]);
    const undone = must(await f.review.undo({ sessionId: f.sessionId }));
    expect(undone.decision.decisionId).toBe(all.decision.decisionId);
    expect(await text(f, 'a.txt')).toBe(seq(10, { 2: 'one' }));
    // A title change while reverted keeps the boundary: the marks stay as they were.
    f.sessions.updateSession(f.sessionId, { title: 'renamed' });
    expect(f.review.timeline(f.sessionId).map((e) => e.reverted === true)).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('unrevert brings the kept change back as it was: Kept with Undo, the rejected one still rejected', async () => {
    const { f, deps, keep } = await decidedSession();
    fx = f;
    const t = stepTarget(f, 1);
    const held = await diffOf(f, t);
    const timeline = f.review.timeline(f.sessionId);
    must(await revertTo(deps, f.sessionId, { messageId: f.messageId, partId: step2Start(f) }));
    expect(f.review.timeline(f.sessionId)).not.toEqual(timeline);
    must(await unrevert(deps, f.sessionId));
    expect([await text(f, 'a.txt'), await text(f, 'b.txt')]).toEqual([seq(10, { 2: 'one', 8: 'two' }), seq(6)]);
    expect(f.review.timeline(f.sessionId)).toEqual(timeline);
    expect(await diffOf(f, t)).toEqual(held);
    const undone = must(await f.review.undo({ sessionId: f.sessionId, decisionId: keep }));
    expect(undone.hunks.map((h) => h.state)).toEqual(['pending']);
  });

  it('a session reverted to before its first message marks every point, and a reload (new service) sees the same', async () => {
    const { f, deps } = await decidedSession();
    fx = f;
    must(await revertTo(deps, f.sessionId, { messageId: f.messageId }));
    expect([await text(f, 'a.txt'), await text(f, 'b.txt')]).toEqual([seq(10), seq(6)]);
    const again = f.reopen();
    const timeline = again.timeline(f.sessionId);
    expect(timeline.map((e) => e.reverted === true)).toEqual([true, true, true, true]);
    const step1 = must(await again.diff(f.sessionId, { kind: 'point', entryId: timeline[0]!.id, against: 'previous' }));
    expect(step1.files.flatMap((x) => x.hunks).map((h) => h.reverted)).toEqual(['unrevert_brings_back']);
  });
});
