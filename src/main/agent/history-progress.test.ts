/**
 * A history move's progress on a real service (in-thread snapshot store, a project of 2,000 files): a step writes
 * 30 files, then a revert, its preview and the unrevert each report ONE operation of the session — its walk, its
 * per-file plan (`plan`, of the 30 files) and, for a move that writes, the transaction's `prepare` and `write` —
 * in order, counts never above their totals, ending `end` with done == total and the bytes written adding up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../shared/progress-schemas';
import { ProgressEventSchema } from '../../shared/progress-schemas';
import { harness, scripted, tempDir } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const WRITTEN = 30;
const content = (i: number): string => `written by the agent ${i}\n`.repeat(1 + i);

/** The phases of one operation's reports, each once, in order. */
function phases(events: ProgressEvent[]): (string | undefined)[] {
  return events.map((e) => e.phase).filter((p, i, a) => i === 0 || p !== a[i - 1]);
}

function checked(events: ProgressEvent[], operation: ProgressEvent['operation'], sessionId: string): ProgressEvent[] {
  expect(new Set(events.map((e) => e.id)).size).toBe(1);
  expect(events.every((e) => e.operation === operation && e.sessionId === sessionId)).toBe(true);
  expect(events[0]!.state).toBe('start');
  expect(events.at(-1)!.state).toBe('end');
  for (let i = 1; i < events.length; i++) expect(events[i]!.elapsedMs).toBeGreaterThanOrEqual(events[i - 1]!.elapsedMs);
  for (const e of events) if (e.count?.total !== undefined) expect(e.count.done).toBeLessThanOrEqual(e.count.total);
  return events;
}

describe('history move progress', () => {
  it('revert, preview and unrevert each report one ordered operation with the plan and the writes', async () => {
    const root = tempDir('proj');
    for (let i = 0; i < 2000; i++) {
      mkdirSync(path.join(root, `pkg${i % 20}`), { recursive: true });
      writeFileSync(path.join(root, `pkg${i % 20}`, `f${i}.txt`), `file ${i}\n`);
    }
    h = await harness({}, root);
    const s = h.newSession('writes');
    const calls = Array.from({ length: WRITTEN }, (_, i) => ({
      callId: `w${i}`,
      toolName: 'write',
      input: { filePath: `src/written${i}.txt`, content: content(i) },
    }));
    const turn = await h.svc.runWithModel(s, scripted([calls]), 'write them');
    if (!turn.ok) throw new Error(turn.error.message);
    const seen: ProgressEvent[] = [];
    h.svc.on((e) => {
      if (e.type === 'progress') seen.push(ProgressEventSchema.parse(e));
    });

    const preview = await h.svc.revert(s, turn.value.userMessageId, undefined, { preview: true });
    expect(preview.ok).toBe(true);
    const pv = checked(seen.splice(0), 'preview', s);
    expect(phases(pv)).toEqual([undefined, 'walk', 'plan']);
    expect(pv.at(-1)!.count).toEqual({ done: WRITTEN, total: WRITTEN, unit: 'files' });

    expect((await h.svc.revert(s, turn.value.userMessageId)).ok).toBe(true);
    const rv = checked(seen.splice(0), 'revert', s);
    // The walk before, the plan, the writes, and the walk that snapshots the result.
    expect(phases(rv)).toEqual([undefined, 'walk', 'plan', 'prepare', 'write', 'walk']);
    expect(rv.find((e) => e.phase === 'walk' && e.state === 'running')?.count?.unit).toBe('files');
    const wrote = rv.filter((e) => e.phase === 'write').at(-1)!;
    expect(wrote.count).toEqual({ done: WRITTEN, total: WRITTEN, unit: 'files' });
    expect(wrote.bytes?.done).toBe(0); // a revert of new files removes them: nothing written
    expect(rv.at(-1)!.count!.done).toBe(rv.at(-1)!.count!.total);

    expect((await h.svc.unrevert(s)).ok).toBe(true);
    const un = checked(seen.splice(0), 'unrevert', s);
    expect(phases(un)).toEqual([undefined, 'walk', 'plan', 'prepare', 'write']);
    const back = un.filter((e) => e.phase === 'write').at(-1)!;
    expect(back.count).toEqual({ done: WRITTEN, total: WRITTEN, unit: 'files' });
    const bytes = Array.from({ length: WRITTEN }, (_, i) => Buffer.byteLength(content(i))).reduce((a, b) => a + b);
    expect(back.bytes?.done).toBe(bytes); // every byte put back, counted once
  });
});
