/**
 * The chat's compaction calls through the real service (SQLite store, snapshot store, bash children) with a mock
 * model recording every request: `compactNow` (contract `compaction.run`) stores a 'manual' part in the last
 * assistant message, refuses a running session and a session with nothing to fold; `undoCompaction` (contract
 * `compaction.undo`) gives back, byte for byte, the request a session that never compacted sends, and redo
 * puts the summary back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { allowBash, isSummary, sessionModel } from './context/compaction-kit';
import type { WindowSpec } from './context/windows';
import { harness, type Harness } from './testing/fixtures';

let hs: Harness[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
});

async function open(): Promise<Harness> {
  const h = await harness();
  hs.push(h);
  await allowBash(h);
  return h;
}

const HUGE: WindowSpec = { window: 10_000_000, outputReserve: 0, source: 'settings' };
const window = { spec: HUGE };
const TASK = 'Make the test suite pass; do not touch tests/fixtures.';
const STEPS = [150, 150, 150, 150];

function compactions(h: Harness, s: string): Extract<Part, { type: 'compaction' }>[] {
  const v = h.svc.getSession(s);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'compaction');
}

/** A request's prompt as JSON, with the harness's project folder written as <project>. */
function sentBy(h: Harness, request: { prompt: unknown } | undefined): string {
  return JSON.stringify(request?.prompt).split(h.root).join('<project>');
}

describe('compaction.run and compaction.undo through the service', () => {
  it('run: one summary request, a manual part in the last assistant message, folding the earlier turn', async () => {
    const h = await open();
    const s = h.newSession();
    await h.svc.runWithModel(s, sessionModel({ steps: STEPS }), TASK, 50, window);
    await h.svc.runWithModel(s, sessionModel({ steps: [150] }), 'and the docs', 50, window);
    const model = sessionModel({ steps: [], summary: () => 'The tests pass; docs next.' });
    const r = await h.svc.compactNow(s, { languageModel: model, window });
    expect(r.ok).toBe(true);
    expect(model.requests.map(isSummary)).toEqual([true]);
    const detail = h.svc.getSession(s);
    if (!r.ok || !detail.ok || r.value.type !== 'compaction') throw new Error('no part');
    const [stored] = compactions(h, s);
    expect(stored).toEqual(r.value);
    expect(stored?.trigger).toBe('manual');
    expect(stored?.summary).toBe('The tests pass; docs next.');
    const messages = detail.value.messages;
    const lastAssistant = messages.filter((m) => m.role === 'assistant').pop();
    expect(stored?.messageId).toBe(lastAssistant?.id);
    // the first turn (its user message and its assistant message) is folded; the recent history is kept
    expect(stored?.folded.slice(0, 2)).toEqual([messages[0]?.id, messages[1]?.id]);
    expect(stored?.tokensAfter).toBeLessThan(stored?.tokensBefore ?? 0);
    expect(h.svc.isBusy(s)).toBe(false);
    // the next request carries the summary instead of the folded steps
    const next = sessionModel({ steps: [] });
    await h.svc.runWithModel(s, next, 'go on', 50, window);
    expect(JSON.stringify(next.requests[0]?.prompt)).toContain('<summary>\\nThe tests pass; docs next.\\n</summary>');
  });

  it('undo: the next request equals byte for byte the one of a session that never compacted; redo restores it', async () => {
    const [a, b] = [await open(), await open()];
    const [sa, sb] = [a.newSession(), b.newSession()];
    for (const [h, s] of [
      [a, sa],
      [b, sb],
    ] as const) {
      await h.svc.runWithModel(s, sessionModel({ steps: STEPS }), TASK, 50, window);
      await h.svc.runWithModel(s, sessionModel({ steps: [150] }), 'and the docs', 50, window);
    }
    const r = await a.svc.compactNow(sa, { languageModel: sessionModel({ steps: [] }), window });
    if (!r.ok) throw new Error(r.error.message);
    expect(a.svc.undoCompaction(sa, r.value.id, true)).toEqual({ ok: true, value: undefined });
    expect(compactions(a, sa).map((c) => c.undone)).toEqual([true]);
    const [ma, mb] = [sessionModel({ steps: [] }), sessionModel({ steps: [] })];
    await a.svc.runWithModel(sa, ma, 'now the changelog', 50, window);
    await b.svc.runWithModel(sb, mb, 'now the changelog', 50, window);
    // the two projects live in different temp folders: the system prompt names each one's own
    const sent = sentBy(a, ma.requests[0]);
    expect(sent).toBe(sentBy(b, mb.requests[0]));
    expect(sent).not.toContain('<summary>');
    // redo: in force again
    expect(a.svc.undoCompaction(sa, r.value.id, false).ok).toBe(true);
    const again = sessionModel({ steps: [] });
    await a.svc.runWithModel(sa, again, 'one more', 50, window);
    expect(JSON.stringify(again.requests[0]?.prompt)).toContain('<summary>');
    const missing = a.svc.undoCompaction(sa, 'prt_missing', true);
    expect(!missing.ok && missing.error.code).toBe('not_found');
  });

  it('refuses: nothing to fold (no_change), an unknown session (invalid_input), a running turn (busy)', async () => {
    const h = await open();
    const s = h.newSession();
    const model = sessionModel({ steps: [] });
    const empty = await h.svc.compactNow(s, { languageModel: model, window });
    expect(!empty.ok && empty.error.code).toBe('no_change');
    const unknown = await h.svc.compactNow('ses_missing', { languageModel: model, window });
    expect(!unknown.ok && unknown.error.code).toBe('invalid_input');
    expect(model.requests).toHaveLength(0);
    expect(compactions(h, s)).toHaveLength(0);
    const started = await h.svc.startTurn(s, TASK, { languageModel: sessionModel({ steps: [150] }), window });
    if (!started.ok) throw new Error(started.error.message);
    const busy = await h.svc.compactNow(s, { languageModel: model, window });
    expect(!busy.ok && busy.error.code).toBe('busy');
    const undoBusy = h.svc.undoCompaction(s, 'prt_any', true);
    expect(!undoBusy.ok && undoBusy.error.code).toBe('busy');
    await started.value.turn.done;
  });
});
