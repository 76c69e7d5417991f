/**
 * The long session (DESIGN §11): 300 scripted steps reading and printing ~6 MB of test logs in all, through the
 * real loop, against a 100,000-token window. No request the model is sent is over the window; the user's task and
 * the AGENTS.md sentinel line are in the last request word for word (the sentinel in every step request);
 * compactions roll (each summary request carries the previous summary).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { harness, type Harness } from '../testing/fixtures';
import { allowBash, isSummary, logText, requestTokens, sessionModel, writeLogs } from './compaction-kit';
import type { WindowSpec } from './windows';
import { DEFAULT_LOOP_LIMITS } from '../loop-guard';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const WINDOW: WindowSpec = { window: 100_000, outputReserve: 8_000, source: 'settings' };
const TASK = 'Fix the flaky retry test in tests/unit/test_retry.py; keep the public API unchanged.';
const SENTINEL = 'SENTINEL-LONG-9c1e: run `make lint` before you say a change is done.';

it('300 steps, ~6 MB of logs: never over the window, the task and the AGENTS.md sentinel in the last request', async () => {
  h = await harness();
  await allowBash(h);
  writeFileSync(path.join(h.root, 'AGENTS.md'), `# Rules\n${SENTINEL}\n`);
  let bytes = 0;
  const names = writeLogs(h.root, 60, 150, 'run');
  const logs = names.map((_, i) => logText(i, 150));
  // 294 reads of a ~10 KB log, and 6 bash runs printing 6,000 lines (~460 KB each, cut by the output cap)
  const steps = Array.from({ length: 300 }, (_, k) => (k % 50 === 49 ? 6_000 : (names[k % 60] as string)));
  for (const [k, step] of steps.entries()) bytes += typeof step === 'string' ? (logs[k % 60]?.length ?? 0) : 0;
  bytes += 6 * 6_000 * 77;
  const model = sessionModel({ steps });
  const s = h.newSession();
  // 300 tool calls in one turn: over the default per-turn budget of 200 (loop-guard.ts), raised here
  const limits = { ...DEFAULT_LOOP_LIMITS, maxToolCalls: 1_000 };
  const r = await h.svc.prompt(s, TASK, { languageModel: model, maxSteps: 400, window: { spec: WINDOW }, limits });
  expect(r.ok && [r.value.finishReason, r.value.steps]).toEqual(['stop', 301]);
  const sizes = model.requests.map(requestTokens);
  const summaries = model.requests.filter(isSummary);
  console.log(
    `long session: ${model.steps.length} step requests, ${summaries.length} compactions, logs ≈ ${(bytes / 1e6).toFixed(1)} MB, largest request ${Math.max(...sizes)} tokens (window ${WINDOW.window})`,
  );
  for (const n of sizes) expect(n).toBeLessThanOrEqual(WINDOW.window);
  expect(summaries.length).toBeGreaterThanOrEqual(5);
  // rolling: every summary request after the first carries the previous summary
  for (const q of summaries.slice(1)) expect(JSON.stringify(q.prompt)).toContain('## Summary of the part before');
  const last = JSON.stringify(model.steps[model.steps.length - 1]?.prompt);
  expect(last).toContain(TASK);
  expect(last).toContain(JSON.stringify(SENTINEL).slice(1, -1));
  for (const step of model.steps)
    expect(JSON.stringify(step.prompt[0])).toContain(JSON.stringify(SENTINEL).slice(1, -1));
});
