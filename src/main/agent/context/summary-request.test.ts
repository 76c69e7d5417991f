/**
 * The summary request as the model is sent it (compaction-request.ts, summary-outputs.ts), through the real loop
 * (service, SQLite store, read tool) with a mock model that records every request, against a 100,000-token window:
 * - the request is rebuilt here, byte for byte, from what the step requests carried: the user's task, each folded
 *   step's tool call, and its output — whole for the newest SUMMARY_PROTECT_TOKENS (25,000) tokens of tool output (counted over the whole
 *   history, the part kept verbatim first), start + end with exact counts and the error lines for the older ones;
 * - a rolling compaction sends the previous summary and only what followed it (nothing the first one folded).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, expect, it } from 'vitest';
import { harness, type Harness } from '../testing/fixtures';
import { isSummary, sessionModel } from './compaction-kit';
import { SUMMARY_INSTRUCTION, SUMMARY_SYSTEM } from './compaction-request';
import { ERROR_LINE, HEAD_LINES, SUMMARY_PROTECT_TOKENS } from './summary-outputs';
import { estimateTokens } from './tokens';
import type { WindowSpec } from './windows';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const WINDOW: WindowSpec = { window: 100_000, outputReserve: 0, source: 'settings' };
const TASK = 'Find why test_retry fails; do not change the public API of src/retry.py.';
const FILES = 64;

/** Log `f`: 120 short lines, the error of this run at line 60. */
function logText(f: number): string {
  return Array.from({ length: 120 }, (_, i) =>
    i === 59
      ? `E   AssertionError: retry_count ${f} != 3 (src/retry.py:88 in backoff_delay)\n`
      : `tests/unit/test_retry_${f}.py::test_case_${i + 1} PASSED in 0.${String(i).padStart(3, '0')} s\n`,
  ).join('');
}

/** An old output as the summariser must get it: HEAD_LINES first and last lines, the marker, the error lines. */
function shortened(full: string): string {
  const lines = full.split('\n');
  for (const l of lines) expect(l.length).toBeLessThan(100); // so HEAD_LINES lines fit HEAD_CHARS at both ends
  const middle = lines.slice(HEAD_LINES, lines.length - HEAD_LINES);
  const errors = middle.map((l, i) => ({ l, n: HEAD_LINES + i + 1 })).filter((x) => ERROR_LINE.test(x.l));
  expect(errors).toHaveLength(1);
  const left = middle.filter((l) => !ERROR_LINE.test(l));
  const chars = left.reduce((n, l) => n + l.length + 1, 0);
  return [
    ...lines.slice(0, HEAD_LINES),
    `[… ${left.length} of ${lines.length} lines (${chars} characters) of this output left out of the summary request; 1 line(s) of it that name an error follow …]`,
    ...errors.map((e) => `line ${e.n}: ${e.l}`),
    '[…]',
    ...lines.slice(lines.length - HEAD_LINES),
  ].join('\n');
}

/** The tool outputs a step request carried, by call id, in order. */
function outputs(q: LanguageModelV3CallOptions): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of q.prompt)
    if (m.role === 'tool')
      for (const p of m.content)
        if (p.type === 'tool-result') out.set(p.toolCallId, (p.output as { value: string }).value);
  return out;
}

const resultText = (v: string): string => `## Tool result (read)\n${v}`;

/** The summary request expected between step requests `before` and `after` (module docstring). */
function expected(before: LanguageModelV3CallOptions, after: LanguageModelV3CallOptions, previous?: string) {
  const all = outputs(before);
  const kept = outputs(after);
  const folded = [...all].filter(([id]) => !kept.has(id));
  let protect = SUMMARY_PROTECT_TOKENS - [...kept.values()].reduce((n, v) => n + estimateTokens(resultText(v)), 0);
  const whole = new Set<string>();
  for (const [id, v] of [...folded].reverse()) {
    protect -= estimateTokens(resultText(v));
    if (protect < 0) break;
    whole.add(id);
  }
  const parts = [
    ...(previous === undefined ? [`## User\n${TASK}`] : [`## Summary of the part before\n${previous}`]),
    ...folded.flatMap(([id, v]) => [
      `## Tool call read\n${JSON.stringify({ filePath: `logs/f${id.slice('call-'.length)}.log` })}`,
      resultText(whole.has(id) ? v : shortened(v)),
    ]),
  ];
  return {
    prompt: `${parts.join('\n\n')}\n\n${SUMMARY_INSTRUCTION}`,
    whole: whole.size,
    short: folded.length - whole.size,
  };
}

it('the summary request: old outputs start + end with exact counts and their errors, the newest whole, rolling', async () => {
  h = await harness();
  mkdirSync(path.join(h.root, 'logs'));
  for (let f = 0; f < FILES; f++) writeFileSync(path.join(h.root, 'logs', `f${f}.log`), logText(f));
  const summaries = ['## Task and user instructions\nFIRST-SUMMARY', '## Task and user instructions\nSECOND-SUMMARY'];
  let n = 0;
  const steps = Array.from({ length: FILES }, (_, f) => `logs/f${f}.log`);
  const model = sessionModel({ steps, summary: () => summaries[n++] ?? 'LATER-SUMMARY' });
  const r = await h.svc.runWithModel(h.newSession(), model, TASK, 100, { spec: WINDOW });
  expect(r.ok && [r.value.finishReason, r.value.error]).toEqual(['stop', undefined]);
  const all = model.requests;
  const at = all.map((q, i) => (isSummary(q) ? i : -1)).filter((i) => i >= 0);
  expect(at.length).toBeGreaterThanOrEqual(2);
  const figures: string[] = [];
  for (const [k, i] of at.slice(0, 2).entries()) {
    const q = all[i] as LanguageModelV3CallOptions;
    expect(q.prompt[0]).toEqual({ role: 'system', content: SUMMARY_SYSTEM });
    const want = expected(
      all[i - 1] as LanguageModelV3CallOptions,
      all[i + 1] as LanguageModelV3CallOptions,
      k === 0 ? undefined : summaries[0],
    );
    expect(q.prompt.slice(1)).toEqual([{ role: 'user', content: [{ type: 'text', text: want.prompt }] }]);
    // both kinds are there: the rule was exercised, not passed by default
    expect([want.whole > 0, want.short > 0]).toEqual([true, true]);
    figures.push(`${want.short} shortened, ${want.whole} whole`);
  }
  // rolling: the second request carries none of what the first one folded (f0 … was read before it)
  const second = JSON.stringify(all[at[1] as number]?.prompt);
  expect(second).not.toContain('logs/f0.log');
  expect(second).not.toContain(TASK);
  console.log(`summary requests: ${figures.join('; ')}`);
});
