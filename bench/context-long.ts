/**
 * The long session of `npm run bench:context` (issue 14 §6): the scripted 300-step session of
 * src/main/agent/context/long-session.test.ts (294 reads of ~10 KB test logs and 6 bash runs printing 6,000 lines,
 * ~5.7 MB of logs, one user turn) through the real loop against a 100,000-token window, and what the same steps
 * would cost under two anchors computed from the very messages Landfall's run produced:
 * - raw loop: no compaction, the full history every step, each request capped at the window (what a provider would
 *   accept at most — the real raw loop fails with a context-length error once over it);
 * - opencode's documented rules: before each step, tool outputs older than the newest 40,000 tokens of tool
 *   output are cleared (when that frees ≥ 20,000 tokens), and at window − 20,000 the history is summarised (the
 *   summary request carries the whole history) and only the newest ~15,000 tokens stay verbatim, cut at a step.
 *   opencode itself prunes only outside the last two user turns (nothing, in a one-turn session); pruning every
 *   step here is the generous reading, so this anchor is lower than opencode would really send.
 * Both anchors use the same system prompt, tools, tool outputs (the same 2,000-line / 50 KB cap) and the same
 * summary text as Landfall's run; tokens are the one estimator (o200k_base) of src/main/agent/context/tokens.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { harness } from '../src/main/agent/testing/fixtures';
import { allowBash, isSummary, requestTokens, sessionModel } from '../src/main/agent/context/compaction-kit';
import { estimateTokens } from '../src/main/agent/context/tokens';
import { DEFAULT_LOOP_LIMITS } from '../src/main/agent/loop-guard';
import type { WindowSpec } from '../src/main/agent/context/windows';

const WINDOW: WindowSpec = { window: 100_000, outputReserve: 8_000, source: 'settings' };
const TASK = 'Fix the flaky retry test in tests/unit/test_retry.py; keep the public API unchanged.';
const PROTECT = 40_000;
const PRUNE_MINIMUM = 20_000;
const KEEP = 15_000;
const CLEARED = estimateTokens('[Old tool result content cleared]');

/** A summary of realistic size (~1,500 tokens): the summariser's answer in both Landfall's run and the anchor. */
const SUMMARY = `## Task and user instructions\n${TASK}\n\n## Done so far\n${Array.from(
  { length: 60 },
  (_, i) => `- read logs/run-${i}.log: tests/unit/test_mod_${i % 40}.py all PASSED; no retry failure seen`,
).join('\n')}\n\n## Open\n- find the flaky case in test_retry.py\n`;

export interface SessionFigures {
  /** Tokens of each request sent, in order (step requests and, for the compacting ones, summary requests). */
  requests: number[];
  /** Tokens of the step requests only. */
  steps: number[];
  compactions: number;
  /** Tokens of all summary requests together. */
  compactionCost: number;
  largest: number;
}

/** One step's messages as a unit of history: its tokens, and how many of them are a tool result's output. */
interface Unit {
  tokens: number;
  tool: number;
}

const seen = new Map<string, number>();
function tokensOf(v: unknown): number {
  const json = JSON.stringify(v);
  let n = seen.get(json);
  if (n === undefined) seen.set(json, (n = estimateTokens(json)));
  return n;
}

/** The unit of the step a request appended: its last assistant message and the tool message after it. */
function lastStep(options: LanguageModelV3CallOptions): Unit {
  const tail = options.prompt.slice(-2);
  const tool = tail[1]?.role === 'tool' ? tokensOf(tail[1]) : 0;
  return { tokens: tail.reduce((n, m) => n + tokensOf(m), 0), tool };
}

function figures(requests: number[], steps: number[], summaries: number[]): SessionFigures {
  return {
    requests,
    steps,
    compactions: summaries.length,
    compactionCost: summaries.reduce((a, b) => a + b, 0),
    largest: Math.max(...requests),
  };
}

/** Bytes at the start of `b` shared with `a` (the request sent before it). */
function sharedBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export interface LongSession {
  landfall: SessionFigures;
  raw: SessionFigures;
  opencode: SessionFigures;
  /**
   * Prefix reuse between consecutive step requests with no compaction between them: the share of each request's
   * bytes shared with the one before it (request-view.ts `sharedPrefixShare`'s measure, as the corpus figure).
   */
  reuse: number[];
  /** The share of the previous request's bytes that start the next one (what a provider's prefix cache reuses). */
  reusePrev: number[];
  /** Consecutive step requests (no compaction between) where the next is the previous plus appended messages. */
  appends: number;
  /** The same across a compaction (the summary replaces the older history: low by design). */
  reuseAcross: number[];
  window: number;
  logBytes: number;
  taskInLast: boolean;
}

/** Runs the 300-step session through the real loop and computes both anchors from its messages. */
export async function longSession(): Promise<LongSession> {
  const h = await harness();
  try {
    await allowBash(h);
    writeFileSync(path.join(h.root, 'AGENTS.md'), '# Rules\nRun `make lint` before you say a change is done.\n');
    mkdirSync(path.join(h.root, 'logs'));
    const logs = Array.from({ length: 60 }, (_, run) =>
      Array.from(
        { length: 150 },
        (_, i) => `[run ${run}] tests/unit/test_mod_${i % 40}.py::test_case_${i} PASSED in 0.0${i % 97} s\n`,
      ).join(''),
    );
    logs.forEach((t, i) => writeFileSync(path.join(h.root, 'logs', `run-${i}.log`), t));
    const script = Array.from({ length: 300 }, (_, k) => (k % 50 === 49 ? 6_000 : `logs/run-${k % 60}.log`));
    const logBytes = script.reduce<number>(
      (n, s, k) => n + (typeof s === 'string' ? (logs[k % 60]?.length ?? 0) : 6_000 * 77),
      0,
    );
    const model = sessionModel({ steps: script, summary: () => SUMMARY });
    const s = h.newSession();
    const limits = { ...DEFAULT_LOOP_LIMITS, maxToolCalls: 1_000 };
    const r = await h.svc.prompt(s, TASK, { languageModel: model, maxSteps: 400, window: { spec: WINDOW }, limits });
    if (!r.ok || r.value.finishReason !== 'stop') throw new Error(`long session did not finish: ${JSON.stringify(r)}`);
    const all = model.requests as LanguageModelV3CallOptions[];
    const landfall = figures(
      all.map(requestTokens),
      model.steps.map(requestTokens),
      all.filter(isSummary).map(requestTokens),
    );
    const { reuse, reusePrev, appends, reuseAcross } = prefixReuse(all);
    const first = model.steps[0] as LanguageModelV3CallOptions;
    const fixed = requestTokens(first);
    const units = model.steps.slice(1).map(lastStep);
    const last = JSON.stringify(model.steps.at(-1)?.prompt);
    return {
      landfall,
      raw: rawLoop(fixed, units),
      opencode: opencodeRules(fixed, units, tokensOf({ role: 'user', content: SUMMARY })),
      reuse,
      reusePrev,
      appends,
      reuseAcross,
      window: WINDOW.window,
      logBytes,
      taskInLast: last.includes(TASK),
    };
  } finally {
    await h.close();
  }
}

/** Prefix reuse between consecutive step requests, apart for pairs with a summary request between them. */
function prefixReuse(all: LanguageModelV3CallOptions[]): {
  reuse: number[];
  reusePrev: number[];
  appends: number;
  reuseAcross: number[];
} {
  const out = { reuse: [] as number[], reusePrev: [] as number[], appends: 0, reuseAcross: [] as number[] };
  let prev: string | undefined;
  let compacted = false;
  for (const q of all) {
    if (isSummary(q)) {
      compacted = true;
      continue;
    }
    // the prompt last, so an appended message extends the text: only the closing "]}" differs
    const text = JSON.stringify({ tools: q.tools, prompt: q.prompt });
    if (prev !== undefined) {
      const shared = sharedBytes(prev, text);
      if (compacted) out.reuseAcross.push(shared / text.length);
      else {
        out.reuse.push(shared / text.length);
        out.reusePrev.push(shared / prev.length);
        if (shared >= prev.length - 2) out.appends++;
      }
    }
    prev = text;
    compacted = false;
  }
  return out;
}

/** The raw loop: request k carries the first request and every step before k, capped at the window. */
function rawLoop(fixed: number, units: Unit[]): SessionFigures {
  const steps: number[] = [];
  let size = fixed;
  steps.push(Math.min(size, WINDOW.window));
  for (const u of units) {
    size += u.tokens;
    steps.push(Math.min(size, WINDOW.window));
  }
  return figures(steps, steps, []);
}

/** opencode's documented rules over the same steps (module docstring). */
function opencodeRules(fixed: number, units: Unit[], summary: number): SessionFigures {
  const requests: number[] = [];
  const steps: number[] = [];
  const summaries: number[] = [];
  let history: Unit[] = [];
  let base = fixed;
  const size = (): number => base + history.reduce((n, u) => n + u.tokens, 0);
  const send = (): void => {
    prune(history);
    if (size() >= WINDOW.window - 20_000) {
      summaries.push(size());
      requests.push(size());
      const kept: Unit[] = [];
      let keptTokens = 0;
      for (const u of [...history].reverse()) {
        if (keptTokens + u.tokens > KEEP) break;
        kept.unshift(u);
        keptTokens += u.tokens;
      }
      history = kept;
      base = fixed + summary;
    }
    requests.push(size());
    steps.push(size());
  };
  send();
  for (const u of units) {
    history.push({ ...u });
    send();
  }
  return figures(requests, steps, summaries);
}

/** Clears tool outputs older than the newest PROTECT tokens of tool output, when that frees ≥ PRUNE_MINIMUM. */
function prune(history: Unit[]): void {
  let seenTool = 0;
  const old: Unit[] = [];
  for (const u of [...history].reverse()) {
    if (u.tool <= CLEARED) continue;
    seenTool += u.tool;
    if (seenTool > PROTECT) old.push(u);
  }
  const freed = old.reduce((n, u) => n + u.tool - CLEARED, 0);
  if (freed < PRUNE_MINIMUM) return;
  for (const u of old) {
    u.tokens -= u.tool - CLEARED;
    u.tool = CLEARED;
  }
}
