/**
 * Revert, unrevert, undo and redo across a compaction boundary (DESIGN §5, §11), through the real service with a
 * mock model that records every request: the files on disk and what the model is sent agree.
 *
 * Each session writes files, and its second turn compacts (the summary folds the first turn). A twin session on
 * another data folder plays the same script without the history move; after the move, the next request must equal
 * the twin's byte for byte (project and data folders named alike):
 * - revert (or undo) to before the compaction → the files of the reverted turn are gone and the request carries
 *   no summary of the reverted messages: it equals that of a session that never ran the reverted turn;
 * - unrevert (or redo) → the files are back and the summary with them: the request equals that of a session that
 *   never reverted;
 * - revert to a turn after the compaction → the summary stays, that turn's files go.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../../shared/model';
import { promptModel, type PromptModel } from '../testing/prompt-model';
import type { Harness } from '../testing/fixtures';
import { isSummary } from './compaction-kit';
import { datedHarness } from './context-test-kit';
import type { WindowSpec } from './windows';

let hs: Harness[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
});

const SMALL: WindowSpec = { window: 60_000, outputReserve: 0, source: 'settings' };
const SUMMARY = '## Task and user instructions\nSUMMARY-OF-THE-EARLIER-PART (files a1…a4 written, b1… begun)';
/** Files of the first turn, and of the second (which compacts part-way). */
const TURN_A = ['a1', 'a2', 'a3', 'a4'];
const TURN_B = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9'];

/** ~12 KB of text for file `name` (so a few writes reach the 40,000-token trigger of a 60,000 window). */
function body(name: string): string {
  return Array.from({ length: 240 }, (_, i) => `${name} line ${i}: the quick brown fox jumps over the lazy dog\n`).join(
    '',
  );
}

/** A model that writes `files` one per step (call ids from the file name), then says `done <turn>`; summaries fixed. */
function writer(turn: string, files: string[]): PromptModel {
  let k = 0;
  const m: PromptModel = promptModel((_p, n) => {
    if (isSummary(m.requests[n] as LanguageModelV3CallOptions)) return { text: SUMMARY };
    const f = files[k++];
    if (f === undefined) return { text: `done ${turn}` };
    return { calls: [{ toolName: 'write', input: { filePath: `${f}.txt`, content: body(f) }, id: `call-${f}` }] };
  });
  return m;
}

async function open(): Promise<Harness> {
  const h = await datedHarness();
  hs.push(h);
  return h;
}

async function turn(h: Harness, s: string, text: string, files: string[]): Promise<PromptModel> {
  const m = writer(text, files);
  const r = await h.svc.runWithModel(s, m, text, 50, { spec: SMALL });
  if (!r.ok || r.value.error) throw new Error(`turn "${text}" failed: ${JSON.stringify(r)}`);
  return m;
}

function compactions(h: Harness, s: string): Extract<Part, { type: 'compaction' }>[] {
  return h.svc.store
    .messages(s)
    .flatMap((m) => m.parts)
    .filter((p): p is Extract<Part, { type: 'compaction' }> => p.type === 'compaction');
}

/** The first step request of a turn, with each harness's folders named alike. */
function firstRequest(h: Harness, m: PromptModel): string {
  const req = m.requests.find((q) => !isSummary(q));
  return JSON.stringify(req?.prompt).replaceAll(h.root, '<project>').replaceAll(h.dataDir, '<data>');
}

const has = (h: Harness, f: string): boolean => existsSync(path.join(h.root, `${f}.txt`));

/** A session with turn A, then turn B which compacts; answers the ids of both user messages. */
async function compacted(h: Harness): Promise<{ s: string; userA: string; userB: string }> {
  const s = h.newSession();
  await turn(h, s, 'write the a files', TURN_A);
  await turn(h, s, 'write the b files', TURN_B);
  const cs = compactions(h, s);
  expect(cs.length).toBe(1);
  const users = h.svc.store.messages(s).filter((m) => m.role === 'user');
  const [userA, userB] = users.map((u) => u.id);
  // the compaction happened in turn B and folded all of turn A
  expect(cs[0]?.folded).toContain(userA);
  expect(h.svc.store.messages(s).find((m) => m.parts.some((p) => p.id === cs[0]?.id))?.id).not.toBe(userB);
  return { s, userA: userA as string, userB: userB as string };
}

describe('history moves across a compaction', () => {
  it('revert to before the compaction: files back, no summary of reverted messages; unrevert brings both back', async () => {
    const [h, twinRaw, twinKept] = [await open(), await open(), await open()];
    const { s, userB } = await compacted(h);
    expect(TURN_B.every((f) => has(h, f))).toBe(true);

    const reverted = await h.svc.revert(s, userB);
    expect(reverted.ok && reverted.value.conflicts).toEqual([]);
    expect(TURN_A.every((f) => has(h, f))).toBe(true);
    expect(TURN_B.some((f) => has(h, f))).toBe(false);

    // unrevert: the files and the compaction are back, and the next request is that of a session never reverted
    const unreverted = await h.svc.unrevert(s);
    expect(unreverted.ok).toBe(true);
    expect(TURN_B.every((f) => has(h, f))).toBe(true);
    expect(readFileSync(path.join(h.root, 'b9.txt'), 'utf8')).toBe(body('b9'));
    const kept = await compacted(twinKept);
    const afterUnrevert = await turn(h, s, 'and now c', []);
    const twinAfter = await turn(twinKept, kept.s, 'and now c', []);
    expect(firstRequest(h, afterUnrevert)).toContain('SUMMARY-OF-THE-EARLIER-PART');
    expect(firstRequest(h, afterUnrevert)).toBe(firstRequest(twinKept, twinAfter));

    // revert again to before the compaction, then a new message: no summary, none of turn B's messages
    expect((await h.svc.revert(s, userB)).ok).toBe(true);
    expect(TURN_B.some((f) => has(h, f))).toBe(false);
    const next = await turn(h, s, 'write the c file', ['c1']);
    const sent = firstRequest(h, next);
    expect(sent).not.toContain('SUMMARY-OF-THE-EARLIER-PART');
    expect(sent).not.toContain('b1 line 0');
    expect(sent).not.toContain('write the b files');
    expect(compactions(h, s)).toEqual([]);
    // byte for byte the request of a session that only ever ran turn A
    const t = twinRaw.newSession();
    await turn(twinRaw, t, 'write the a files', TURN_A);
    const twin = await turn(twinRaw, t, 'write the c file', ['c1']);
    expect(sent).toBe(firstRequest(twinRaw, twin));
    expect(has(h, 'c1') && TURN_A.every((f) => has(h, f))).toBe(true);
  });

  it('undo across the compaction, then redo: the same agreement', async () => {
    const [h, twinKept] = [await open(), await open()];
    const { s } = await compacted(h);
    const undone = await h.svc.undo(s);
    expect(undone.ok && undone.value.text).toBe('write the b files');
    expect(TURN_B.some((f) => has(h, f))).toBe(false);
    expect(TURN_A.every((f) => has(h, f))).toBe(true);
    const redone = await h.svc.redo(s);
    expect(redone.ok).toBe(true);
    expect(TURN_B.every((f) => has(h, f))).toBe(true);
    const kept = await compacted(twinKept);
    const a = await turn(h, s, 'next', []);
    const b = await turn(twinKept, kept.s, 'next', []);
    expect(firstRequest(h, a)).toBe(firstRequest(twinKept, b));
    // undo again and send: the compaction went with the turn it was made in
    await h.svc.undo(s); // undoes "next"
    await h.svc.undo(s); // undoes "write the b files"
    const c = await turn(h, s, 'after the undo', []);
    expect(firstRequest(h, c)).not.toContain('SUMMARY-OF-THE-EARLIER-PART');
    expect(firstRequest(h, c)).toContain('write the a files');
    expect(TURN_B.some((f) => has(h, f))).toBe(false);
  });

  it('revert to a turn after the compaction: the summary stays, only that turn is taken back', async () => {
    const [h, twin] = [await open(), await open()];
    const { s } = await compacted(h);
    const third = await h.svc.runWithModel(s, writer('c', ['c1']), 'write the c file', 50, { spec: SMALL });
    expect(has(h, 'c1')).toBe(true);
    const userC = third.ok ? third.value.userMessageId : '';
    expect((await h.svc.revert(s, userC)).ok).toBe(true);
    expect(has(h, 'c1')).toBe(false);
    expect(TURN_B.every((f) => has(h, f))).toBe(true);
    const a = await turn(h, s, 'instead, d', []);
    const kept = await compacted(twin);
    const b = await turn(twin, kept.s, 'instead, d', []);
    expect(firstRequest(h, a)).toContain('SUMMARY-OF-THE-EARLIER-PART');
    expect(firstRequest(h, a)).not.toContain('write the c file');
    expect(firstRequest(h, a)).toBe(firstRequest(twin, b));
  });

  it('a /compact made while reverted folds nothing the next request keeps: it goes with the reverted messages', async () => {
    const [h, twinRaw] = [await open(), await open()];
    const s = h.newSession();
    await turn(h, s, 'write the a files', TURN_A);
    const b = await h.svc.runWithModel(s, writer('b', ['b1', 'b2']), 'write two b files', 50, { spec: SMALL });
    const userB = b.ok ? b.value.userMessageId : '';
    expect((await h.svc.revert(s, userB)).ok).toBe(true);
    const manual = await h.svc.compactNow(s, { languageModel: writer('summary', []), window: { spec: SMALL } });
    expect(manual.ok).toBe(true);
    const next = await turn(h, s, 'write the c file', ['c1']);
    const t = twinRaw.newSession();
    await turn(twinRaw, t, 'write the a files', TURN_A);
    const twin = await turn(twinRaw, t, 'write the c file', ['c1']);
    expect(firstRequest(h, next)).not.toContain('SUMMARY-OF-THE-EARLIER-PART');
    expect(firstRequest(h, next)).toBe(firstRequest(twinRaw, twin));
    expect(compactions(h, s)).toEqual([]);
    expect(has(h, 'b1') || has(h, 'b2')).toBe(false);
  });
});
