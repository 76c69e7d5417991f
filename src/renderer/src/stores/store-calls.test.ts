/**
 * The store's calls, counted at the transport (the `window.landfall` door rpc/ uses, as the Electron preload gives
 * it). Every scripted answer is parsed with the contract's own output schema first, so it has the exact shape main
 * sends. The review slice: a decision or an undo is ONE call and its answer redraws the point, the pending counts and
 * the timeline; pushed changes in a burst are one reload. The history slice: each move is one call, and the session
 * row and kept-files notice come from its answer. Timers are vitest's fake ones: nothing here waits on a clock.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CALL_NAMES, EVENT_NAMES, calls as contract } from '../../../shared/contract';
import type { CallName, CallOutput, LandfallApi } from '../../../shared/contract';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { ReviewDiff, ReviewHunk, TimelineEntry } from '../../../shared/review-schemas';
import { createAppStore } from './index';
import { REFRESH_MS, SETTLE_MS } from './review-slice';

type Answer<T> = T | Result<T>;
type Script = { [N in CallName]?: (input: unknown) => Answer<CallOutput<N>> | Promise<Answer<CallOutput<N>>> };

/**
 * A transport that records every call (name and input) and answers from `script()` (validated by the contract).
 * One per file: rpc/ takes the door once, as the app does.
 */
function recording(script: () => Script): { sent: { name: string; input: unknown }[]; api: LandfallApi } {
  const sent: { name: string; input: unknown }[] = [];
  const answer = async (name: CallName, input: unknown): Promise<Result<unknown>> => {
    sent.push({ name, input });
    const run = script()[name];
    if (!run) return fail('unavailable', `${name} is not scripted`, 'Script it in the test.');
    const out = (await run(input)) as unknown;
    const r = (typeof out === 'object' && out !== null && 'ok' in out ? out : ok(out)) as Result<unknown>;
    return r.ok ? ok(contract[name].output.parse(r.value)) : r;
  };
  const api = {
    calls: Object.fromEntries(CALL_NAMES.map((n) => [n, (input: unknown) => answer(n, input)])),
    events: Object.fromEntries(EVENT_NAMES.map((n) => [n, () => () => {}])),
  } as unknown as LandfallApi;
  return { sent, api };
}

const S = 'ses_calls';
const hunk = (id: string, state: ReviewHunk['state'] = 'pending'): ReviewHunk => ({
  id,
  kind: 'lines',
  oldStart: 2,
  oldLines: 1,
  newStart: 2,
  newLines: 1,
  lines: ['-a', '+b'],
  state,
});
const step = (id: string, index: number): TimelineEntry => ({
  id,
  kind: 'step',
  index,
  messageId: 'msg_1',
  from: `t${index}`,
  to: `t${index + 1}`,
  time: index,
  tools: ['edit'],
  files: ['r.txt'],
  label: 'edit · r.txt',
});
const DIFF: ReviewDiff = {
  from: 't0',
  to: 't1',
  scope: 't0..t1',
  files: [
    {
      path: 'r.txt',
      status: 'modified',
      before: 'a\na\n',
      after: 'b\nb\n',
      beforeSize: 4,
      afterSize: 4,
      additions: 2,
      deletions: 2,
      hunks: [hunk('h1'), hunk('h2')],
    },
  ],
};
const decisionEntry: TimelineEntry = { ...step('dec_1', 2), kind: 'decision', tools: ['accept'], label: 'Kept 1 hunk' };

let script: Script = {};
const t = recording(() => script);
(globalThis as { window?: unknown }).window = { landfall: t.api };
let store: ReturnType<typeof createAppStore>;
const names = (): string[] => t.sent.map((c) => c.name);

/** A fresh store with the session's review open and the first point's diff shown; the calls so far are cleared. */
async function opened(more: Script): Promise<void> {
  script = { 'review.timeline': () => [step('prt_a', 0), step('prt_b', 1)], 'review.diff': () => DIFF, ...more };
  t.sent.length = 0;
  store = createAppStore();
  store.setState({ sessionId: S });
  await store.getState().openReview(S);
  store.getState().selectPoint(0);
  await vi.advanceTimersByTimeAsync(SETTLE_MS);
  expect(store.getState().review.diff?.scope).toBe('t0..t1');
  t.sent.length = 0;
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('review slice: one call per click', () => {
  test('Keep: one review.decide; its answer redraws the hunk, the pending count, the focus and the timeline', async () => {
    await opened({
      'review.decide': () => ({
        decision: {
          decisionId: 'dec_1',
          action: 'accept',
          hunkIds: ['h1'],
          written: [],
          deleted: [],
          snapshot: 't1',
          seq: 1,
        },
        hunks: [{ id: 'h1', path: 'r.txt', state: 'accepted', decisionId: 'dec_1' }],
        timeline: [decisionEntry],
      }),
    });
    await store.getState().decideHunk('accept');
    await vi.runAllTimersAsync();
    expect(t.sent).toEqual([
      {
        name: 'review.decide',
        input: {
          sessionId: S,
          target: { kind: 'point', entryId: 'prt_a', against: 'previous' },
          action: 'accept',
          hunkIds: ['h1'],
          scope: 't0..t1',
        },
      },
    ]);
    const v = store.getState().review;
    expect(v.diff?.files[0]?.hunks.map((h) => [h.id, h.state, h.decisionId])).toEqual([
      ['h1', 'accepted', 'dec_1'],
      ['h2', 'pending', undefined],
    ]);
    expect(v.pos).toEqual({ file: 0, hunk: 1 });
    expect(v.timeline.map((e) => e.id)).toEqual(['prt_a', 'prt_b', 'dec_1']);
    expect(v.selected).toBe(0);
    // Scrubbing across another point and back (faster than the pointer rests) shows the cached, decided diff.
    store.getState().selectPoint(2);
    store.getState().selectPoint(0);
    await vi.runAllTimersAsync();
    expect(names()).toEqual(['review.decide']);
    expect(store.getState().review.diff?.files[0]?.hunks[0]?.state).toBe('accepted');
  });

  test('Undo: one review.undo carrying the view, the hunk pending again', async () => {
    await opened({
      'review.undo': () => ({
        decision: {
          decisionId: 'dec_0',
          action: 'reject',
          hunkIds: ['h2'],
          written: ['r.txt'],
          deleted: [],
          snapshot: 't9',
          seq: 2,
        },
        hunks: [{ id: 'h2', path: 'r.txt', state: 'pending' }],
        timeline: [{ ...decisionEntry, id: 'undo-2', tools: ['undo'] }],
      }),
    });
    await store.getState().undoDecision('dec_0');
    await vi.runAllTimersAsync();
    expect(t.sent).toEqual([
      {
        name: 'review.undo',
        input: {
          sessionId: S,
          decisionId: 'dec_0',
          target: { kind: 'point', entryId: 'prt_a', against: 'previous' },
          scope: 't0..t1',
        },
      },
    ]);
    expect(store.getState().review.notice).toEqual({ kind: 'info', text: 'Undid the reject of 1 hunk(s).' });
  });

  test('an answer whose timeline does not fit the one shown (a step landed meanwhile) reloads the timeline', async () => {
    await opened({
      'review.decide': () => ({
        decision: {
          decisionId: 'dec_1',
          action: 'accept',
          hunkIds: ['h1'],
          written: [],
          deleted: [],
          snapshot: 't1',
          seq: 1,
        },
        hunks: [{ id: 'h1', path: 'r.txt', state: 'accepted', decisionId: 'dec_1' }],
        timeline: [{ ...decisionEntry, index: 3 }],
      }),
    });
    await store.getState().decideHunk('accept', 'h1');
    await vi.runAllTimersAsync();
    expect(names()).toEqual(['review.decide', 'review.timeline']);
  });

  test('a conflict is the notice, nothing else is asked', async () => {
    await opened({
      'review.decide': () =>
        fail('conflict', 'Cannot reject: lines changed.', 'Edit by hand.', {
          conflicts: [
            { hunkId: 'h1', path: 'r.txt', fromLine: 2, toLine: 2, expected: ['b'], reason: 'lines_changed' },
          ],
        }),
    });
    await store.getState().decideHunk('reject');
    await vi.runAllTimersAsync();
    expect(names()).toEqual(['review.decide']);
    expect(store.getState().review.notice).toMatchObject({ kind: 'conflict', conflicts: [{ hunkId: 'h1' }] });
    expect(store.getState().review.diff?.files[0]?.hunks[0]?.state).toBe('pending');
  });

  test('a diff asked before a pushed change and answered after the refresh cleared the cache is not kept: the refresh asks again', async () => {
    const held: (() => void)[] = [];
    const later = <T>(value: T): Promise<T> => new Promise((resolve) => held.push(() => resolve(value)));
    await opened({});
    script['review.diff'] = () => later(DIFF);
    store.getState().selectPoint(1);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(names()).toEqual(['review.diff']);
    script['review.timeline'] = () => later([step('prt_a', 0), step('prt_b', 1)]);
    store.getState().reviewChanged(S);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(names()).toEqual(['review.diff', 'review.timeline']);
    held.shift()?.(); // the old diff answers after the clear …
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().review).toMatchObject({ loading: true, diffKey: null });
    script['review.diff'] = () => DIFF;
    held.shift()?.(); // … then the timeline: the point's diff is asked again, not taken from the old answer
    await vi.runAllTimersAsync();
    expect(names()).toEqual(['review.diff', 'review.timeline', 'review.diff']);
    expect(store.getState().review).toMatchObject({ loading: false, diffKey: `${S}|prt_b|t1..t2|previous` });
  });

  test('pushed changes in a burst are one reload; another session’s are ignored', async () => {
    await opened({});
    store.getState().reviewChanged(S);
    store.getState().reviewChanged(S);
    store.getState().reviewChanged('ses_other');
    await vi.advanceTimersByTimeAsync(REFRESH_MS / 2);
    store.getState().reviewChanged(S);
    await vi.advanceTimersByTimeAsync(REFRESH_MS - 1);
    expect(names()).toEqual([]);
    await vi.runAllTimersAsync();
    expect(names()).toEqual(['review.timeline', 'review.diff']);
  });
});

describe('history slice: the one home of undo / redo / revert / unrevert', () => {
  const session = { id: S, projectId: 'prj', title: 'T', created: 1, updated: 5 };
  const reverted = { ...session, updated: 6, revert: { messageId: 'msg_u', snapshot: 't0', diff: '' } };

  test('undo is one call: the row, the kept-files notice and the prompt (into an empty input) from its answer', async () => {
    await opened({
      'history.undo': () => ({
        text: 'fix it',
        session: reverted,
        kept: [{ path: 'a.txt', reason: 'changed_after_step' }],
      }),
      'history.redo': () => ({ redone: true, session, kept: [] }),
    });
    store.setState({ sessions: [session], draft: '/undo' });
    await store.getState().send();
    expect(names()).toEqual(['history.undo']);
    expect(store.getState().sessions).toEqual([reverted]);
    expect(store.getState().draft).toBe('fix it');
    expect(store.getState().historyNotice).toEqual({
      op: 'undo',
      sessionId: S,
      kept: [{ path: 'a.txt', reason: 'changed_after_step' }],
      overwrite: { messageId: 'msg_u' },
    });
    await store.getState().redo();
    expect(names()).toEqual(['history.undo', 'history.redo']);
    expect(store.getState().draft).toBe('');
    expect(store.getState().historyNotice).toBeNull();
  });

  test('undo never replaces what the user is typing; redo leaves a draft the user changed', async () => {
    await opened({
      'history.undo': () => ({ text: 'fix it', session: reverted, kept: [] }),
      'history.redo': () => ({ redone: true, session, kept: [] }),
    });
    store.setState({ sessions: [session], draft: 'half a thought' });
    await store.getState().undo();
    expect(store.getState().draft).toBe('half a thought');
    store.setState({ draft: '' });
    await store.getState().undo();
    store.setState({ draft: 'fix it, and more' });
    await store.getState().redo();
    expect(store.getState().draft).toBe('fix it, and more');
  });

  test('revert: preview, then one history.revert; "Overwrite them anyway" asks, then forces the same boundary', async () => {
    let forced = 0;
    await opened({
      'review.revertPreview': () => ({
        restored: ['a.txt'],
        deleted: [],
        conflicts: [{ path: 'a.txt', reason: 'changed_after_step' }],
        diff: '',
      }),
      'history.revert': (input) => {
        if ((input as { force?: boolean }).force) forced++;
        return forced > 0
          ? { session: reverted, kept: [] }
          : { session: reverted, kept: [{ path: 'a.txt', reason: 'changed_after_step' }] };
      },
    });
    store.setState({ sessions: [session] });
    await store.getState().previewRevert('msg_u');
    expect(store.getState().revertPreview?.preview.restored).toEqual(['a.txt']);
    await store.getState().confirmRevert(false);
    expect(store.getState().revertPreview).toBeNull();
    expect(store.getState().historyNotice?.overwrite).toEqual({ messageId: 'msg_u' });
    await store.getState().overwriteKept(); // not confirmed yet: nothing sent
    store.getState().askOverwrite();
    await store.getState().overwriteKept();
    expect(t.sent.map((c) => [c.name, (c.input as { force?: boolean }).force])).toEqual([
      ['review.revertPreview', undefined],
      ['history.revert', false],
      ['history.revert', true],
    ]);
    expect(t.sent[2]?.input).toEqual({ sessionId: S, messageId: 'msg_u', force: true });
    expect(store.getState().historyNotice).toBeNull();
  });

  test('a failed move is the error banner; the row and the input stay', async () => {
    await opened({ 'history.undo': () => fail('busy', 'The session is running a turn.', 'Stop the turn first.') });
    store.setState({ sessions: [session], draft: '' });
    await store.getState().undo();
    expect(store.getState().error?.code).toBe('busy');
    expect(store.getState().sessions).toEqual([session]);
  });
});
