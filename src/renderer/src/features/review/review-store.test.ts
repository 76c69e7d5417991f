import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/errors';
import type { ReviewApi } from './review-api';
import { REFRESH_MS, useReviewStore } from './review-store';

/** A review api with an empty timeline that counts timeline loads and lets the test push change signals. */
function countingApi(): { api: ReviewApi; loads: () => number; push: () => void; listeners: () => number } {
  let loads = 0;
  const subs = new Set<() => void>();
  const unused = (): never => {
    throw new Error('not called by watch()');
  };
  const api: ReviewApi = {
    timeline: async () => {
      loads++;
      return ok([]);
    },
    diff: unused,
    decide: unused,
    undo: unused,
    revertPreview: unused,
    revert: unused,
    unrevert: unused,
    redo: unused,
    subscribe: (_sessionId, onChange) => {
      subs.add(onChange);
      return () => void subs.delete(onChange);
    },
  };
  return { api, loads: () => loads, push: () => subs.forEach((f) => f()), listeners: () => subs.size };
}

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('review store watch()', () => {
  afterEach(() => useReviewStore.setState({ api: null, sessionId: null, timeline: [] }));

  it('folds a burst of pushed changes into one timeline reload, and stops on unsubscribe', async () => {
    const { api, loads, push, listeners } = countingApi();
    useReviewStore.getState().connect(api);
    await useReviewStore.getState().open('ses_watch');
    expect(loads()).toBe(1);
    const off = useReviewStore.getState().watch('ses_watch');
    expect(listeners()).toBe(1);
    push();
    push();
    push();
    await wait(REFRESH_MS / 2);
    expect(loads()).toBe(1);
    await wait(REFRESH_MS * 2);
    expect(loads()).toBe(2);
    push();
    off();
    expect(listeners()).toBe(0);
    await wait(REFRESH_MS * 2);
    expect(loads()).toBe(2);
  });
});
