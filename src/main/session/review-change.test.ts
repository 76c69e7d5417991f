/**
 * Decide and undo answer what they changed (ReviewChange), on a real temp project, snapshot store and session
 * database (review/fixture.ts). The specification: folding the answer into the diff and timeline the view held
 * (src/shared/review-change.ts) gives exactly what a fresh `diff` and `timeline` would — and main computes the
 * target's diff once per decision (counted at the snapshot store's tree diff), never for an undo whose view's trees
 * stay; only a view against "now" after a write gets a second analysis, carried whole in the answer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../shared/errors';
import { applyHunkStates, applyTimeline } from '../../shared/review-change';
import type { ReviewChange, ReviewDiff, ReviewTarget, TimelineEntry } from '../../shared/review-schemas';
import { ReviewLog, ReviewService } from './review';
import { reviewFixture, stepTarget, type Fixture } from './review/fixture';

const seq = (n: number, edits: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => edits[i + 1] ?? String(i + 1)).join('\n') + '\n';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

/** A ReviewService over the fixture whose snapshot store counts its tree diffs (one per diff of a target). */
function counted(f: Fixture): { review: ReviewService; diffs: () => number } {
  let n = 0;
  const snapshots = {
    track: () => f.snapshots.track(),
    readFile: (hash: string, path: string) => f.snapshots.readFile(hash, path),
    diffFull: (from: string, to: string) => {
      n++;
      return f.snapshots.diffFull(from, to);
    },
  };
  const review = new ReviewService({
    project: () => ok({ root: f.root, snapshots }),
    messages: (id) => f.sessions.messages(id),
    log: new ReviewLog(f.sessions.db),
    isBusy: () => false,
  });
  return { review, diffs: () => n };
}

async function diff(review: ReviewService, sessionId: string, target: ReviewTarget): Promise<ReviewDiff> {
  const r = await review.diff(sessionId, target);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

function value(r: { ok: true; value: ReviewChange } | { ok: false; error: unknown }): ReviewChange {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** What a view holds after folding a change in (the renderer's review slice does the same). */
function fold(held: { diff: ReviewDiff; timeline: TimelineEntry[] }, c: ReviewChange) {
  return { diff: c.diff ?? applyHunkStates(held.diff, c.hunks), timeline: applyTimeline(held.timeline, c.timeline) };
}

describe('a decision answers its change in one call', () => {
  it('Keep: the hunk accepted, the decision’s own timeline point, no other diff — one tree diff on main', async () => {
    fx = await reviewFixture({ 'r.txt': seq(20) }, [
      { tool: 'edit', files: { 'r.txt': seq(20, { 3: 'x', 12: 'y' }) } },
    ]);
    const { review, diffs } = counted(fx);
    const t = stepTarget(fx, 0);
    const held = { diff: await diff(review, fx.sessionId, t), timeline: review.timeline(fx.sessionId) };
    const h = held.diff.files[0]!.hunks[1]!;
    const before = diffs();
    const c = value(
      await review.decide({
        sessionId: fx.sessionId,
        target: t,
        action: 'accept',
        hunkIds: [h.id],
        scope: held.diff.scope,
      }),
    );
    expect(diffs() - before).toBe(1);
    expect(c.hunks).toEqual([{ id: h.id, path: 'r.txt', state: 'accepted', decisionId: c.decision.decisionId }]);
    expect(c.diff).toBeUndefined();
    expect(c.timeline).toEqual([expect.objectContaining({ id: c.decision.decisionId, kind: 'decision', index: 1 })]);
    const after = fold(held, c);
    expect(after.diff).toEqual(await diff(review, fx.sessionId, t));
    expect(after.timeline).toEqual(review.timeline(fx.sessionId));
    // Untouched parts keep their identity: the view redraws only what changed.
    expect(applyHunkStates(held.diff, [{ ...c.hunks[0]!, id: 'elsewhere' }])).toBe(held.diff);
  });

  it('Reject of the whole file: every hunk rejected, bytes back, still no second diff for a step view', async () => {
    fx = await reviewFixture({ 'r.txt': seq(20) }, [
      { tool: 'edit', files: { 'r.txt': seq(20, { 3: 'x', 12: 'y' }) } },
    ]);
    const { review, diffs } = counted(fx);
    const t = stepTarget(fx, 0);
    const held = { diff: await diff(review, fx.sessionId, t), timeline: review.timeline(fx.sessionId) };
    const before = diffs();
    const c = value(await review.decide({ sessionId: fx.sessionId, target: t, action: 'reject', path: 'r.txt' }));
    expect(diffs() - before).toBe(1);
    expect(await readFile(join(fx.root, 'r.txt'), 'utf8')).toBe(seq(20));
    expect(c.decision.written).toEqual(['r.txt']);
    expect(c.hunks.map((x) => x.state)).toEqual(['rejected', 'rejected']);
    expect(c.diff).toBeUndefined();
    expect(fold(held, c)).toEqual({
      diff: await diff(review, fx.sessionId, t),
      timeline: review.timeline(fx.sessionId),
    });
  });

  it('Reject against "now" moves the trees: the answer carries the whole new diff (the one second analysis)', async () => {
    fx = await reviewFixture({ 'r.txt': seq(10) }, [{ tool: 'edit', files: { 'r.txt': seq(10, { 2: 'two' }) } }]);
    await fx.write({ 'r.txt': seq(10, { 2: 'two', 7: 'mine' }), 'u.txt': 'user\n' });
    const { review, diffs } = counted(fx);
    const t = stepTarget(fx, 0, 'now');
    const held = { diff: await diff(review, fx.sessionId, t), timeline: review.timeline(fx.sessionId) };
    expect(held.diff.files.map((f) => f.path)).toEqual(['r.txt', 'u.txt']);
    const before = diffs();
    const c = value(
      await review.decide({
        sessionId: fx.sessionId,
        target: t,
        action: 'reject',
        path: 'r.txt',
        scope: held.diff.scope,
      }),
    );
    expect(diffs() - before).toBe(2);
    expect(c.diff?.scope).not.toBe(held.diff.scope);
    expect(c.diff?.files.map((f) => f.path)).toEqual(['u.txt']);
    expect(fold(held, c)).toEqual({
      diff: await diff(review, fx.sessionId, t),
      timeline: review.timeline(fx.sessionId),
    });
  });
});

describe('an undo answers its change in one call', () => {
  it('the hunk pending again, the undo point and the decision flagged undone — no tree diff at all', async () => {
    fx = await reviewFixture({ 'r.txt': seq(20) }, [
      { tool: 'edit', files: { 'r.txt': seq(20, { 3: 'x', 12: 'y' }) } },
    ]);
    const { review, diffs } = counted(fx);
    const t = stepTarget(fx, 0);
    const d0 = await diff(review, fx.sessionId, t);
    const keep = value(await review.decide({ sessionId: fx.sessionId, target: t, action: 'reject', path: 'r.txt' }));
    const held = { diff: applyHunkStates(d0, keep.hunks), timeline: review.timeline(fx.sessionId) };
    const before = diffs();
    const c = value(await review.undo({ sessionId: fx.sessionId, target: t, scope: held.diff.scope }));
    expect(diffs() - before).toBe(0);
    expect(await readFile(join(fx.root, 'r.txt'), 'utf8')).toBe(seq(20, { 3: 'x', 12: 'y' }));
    expect(c.hunks.map((x) => [x.state, x.decisionId])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
    ]);
    expect(c.timeline.map((e) => [e.index, e.tools[0], e.undone ?? false])).toEqual([
      [1, 'reject', true],
      [2, 'undo', false],
    ]);
    expect(fold(held, c)).toEqual({ diff: d0, timeline: review.timeline(fx.sessionId) });
  });

  it('a target not on the timeline is refused before anything is undone', async () => {
    fx = await reviewFixture({ 'r.txt': seq(5) }, [{ tool: 'edit', files: { 'r.txt': seq(5, { 2: 'b' }) } }]);
    await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    const bad = await fx.review.undo({
      sessionId: fx.sessionId,
      target: { kind: 'point', entryId: 'prt_gone', against: 'now' },
    });
    expect(!bad.ok && bad.error.code).toBe('invalid_input');
    expect(await readFile(join(fx.root, 'r.txt'), 'utf8')).toBe(seq(5));
    expect(fx.review.timeline(fx.sessionId).map((e) => e.undone ?? false)).toEqual([false, false]);
  });
});

type Op =
  | { kind: 'one'; action: 'accept' | 'reject'; pick: number }
  | { kind: 'all'; action: 'accept' | 'reject' }
  | { kind: 'undo' }
  | { kind: 'view'; step: number; against: 'previous' | 'start' | 'now' | 'turn' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('one' as const),
    action: fc.constantFrom('accept' as const, 'reject' as const),
    pick: fc.nat(5),
  }),
  fc.record({ kind: fc.constant('all' as const), action: fc.constantFrom('accept' as const, 'reject' as const) }),
  fc.record({ kind: fc.constant('undo' as const) }),
  fc.record({
    kind: fc.constant('view' as const),
    step: fc.nat(1),
    against: fc.constantFrom('previous' as const, 'start' as const, 'now' as const, 'turn' as const),
  }),
);

describe('property: folding every answer gives what a fresh diff and timeline show', () => {
  it('holds over random keeps, rejects and undos on random views (steps, turn, start, now)', async () => {
    let runs = 0;
    let checks = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        runs++;
        const f = await reviewFixture({ 'a.txt': seq(12), 'b.txt': seq(4) }, [
          { tool: 'edit', files: { 'a.txt': seq(12, { 2: 'two', 6: 'six', 10: 'ten' }) } },
          { tool: 'edit', files: { 'a.txt': seq(12, { 2: 'two', 6: 'SIX', 10: 'ten' }), 'b.txt': seq(4, { 3: 'c' }) } },
        ]);
        try {
          const view = (step: number, against: 'previous' | 'start' | 'now' | 'turn'): ReviewTarget =>
            against === 'turn' ? { kind: 'turn', messageId: f.messageId } : stepTarget(f, step, against);
          let target = view(0, 'previous');
          let held = { diff: await diff(f.review, f.sessionId, target), timeline: f.review.timeline(f.sessionId) };
          for (const op of ops) {
            if (op.kind === 'view') {
              target = view(op.step, op.against);
              held = { diff: await diff(f.review, f.sessionId, target), timeline: held.timeline };
              continue;
            }
            const pending = held.diff.files.flatMap((x) => x.hunks.filter((h) => h.state === 'pending'));
            const one = pending[op.kind === 'one' ? op.pick % Math.max(1, pending.length) : 0];
            const r =
              op.kind === 'undo'
                ? await f.review.undo({ sessionId: f.sessionId, target, scope: held.diff.scope })
                : await f.review.decide({
                    sessionId: f.sessionId,
                    target,
                    action: op.action,
                    scope: held.diff.scope,
                    ...(op.kind === 'one' && one ? { hunkIds: [one.id] } : {}),
                  });
            if (r.ok) {
              const next = fold(held, r.value);
              expect(next.timeline).not.toBeNull();
              held = { diff: next.diff, timeline: next.timeline as TimelineEntry[] };
            }
            expect(held.diff).toEqual(await diff(f.review, f.sessionId, target));
            expect(held.timeline).toEqual(f.review.timeline(f.sessionId));
            checks++;
          }
        } finally {
          await f.close();
        }
      }),
      { numRuns: 30 },
    );
    console.log(`review change fold: ${runs} random sessions, ${checks} decisions / undos checked, all held`);
  });
});
