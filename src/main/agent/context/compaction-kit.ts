/**
 * Test support for the compaction tests: a scripted session model (bash steps printing test logs, summaries when
 * the request is a summary request, scripted provider errors), and the size of what a request carried.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { promptModel, type PromptModel, type PromptReply } from '../testing/prompt-model';
import type { Harness } from '../testing/fixtures';
import { SUMMARY_SYSTEM } from './compaction-request';
import { estimateTokens } from './tokens';

/** True when a request is a compaction's summary request. */
export function isSummary(options: LanguageModelV3CallOptions): boolean {
  const first = options.prompt[0];
  return first?.role === 'system' && first.content === SUMMARY_SYSTEM;
}

const seen = new Map<string, number>();
/** estimateTokens of a JSON text, remembered (the same messages recur in every request of a session). */
function counted(json: string): number {
  let n = seen.get(json);
  if (n === undefined) {
    n = estimateTokens(json);
    seen.set(json, n);
  }
  return n;
}

/** Estimated tokens of a request as the provider got it: each prompt message and the tool definitions. */
export function requestTokens(options: LanguageModelV3CallOptions): number {
  const messages = options.prompt.reduce((n, m) => n + counted(JSON.stringify(m)), 0);
  return messages + counted(JSON.stringify(options.tools ?? []));
}

/** A bash command printing `lines` numbered test-log lines (~60 bytes each) for step `step`. */
export function logCommand(step: number, lines: number): string {
  return `seq 1 ${lines} | sed 's/.*/[step ${step}] test_case_& ... PASSED (0.0& s) tests\\/unit\\/test_mod_${step}.py/'`;
}

/**
 * Writes `count` log files `logs/<tag>-<k>.log` under `root`, each the `lines` lines logCommand(k, lines)
 * prints, and answers their root-relative names: steps that read them carry the same text as bash steps, without
 * a process per step.
 */
export function writeLogs(root: string, count: number, lines: number, tag = 'step'): string[] {
  mkdirSync(path.join(root, 'logs'), { recursive: true });
  return Array.from({ length: count }, (_, k) => {
    const name = `logs/${tag}-${k}.log`;
    writeFileSync(path.join(root, name), logText(k, lines));
    return name;
  });
}

/** The `lines` lines (~75 bytes each, newline-ended) that logCommand(step, lines) prints. */
export function logText(step: number, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `[step ${step}] test_case_${i + 1} ... PASSED (0.0${i + 1} s) tests/unit/test_mod_${step}.py\n`,
  ).join('');
}

export interface SessionScript {
  /**
   * Steps of the turn: a number is a bash call printing this many log lines, a string a read of that file (from
   * its line 1); then the model says `done`.
   */
  steps: (number | string)[];
  /** The summary the summariser writes (default: a short one naming the request's size). */
  summary?: (options: LanguageModelV3CallOptions) => string;
  /** Answer request `n` (counting model steps only, not summaries) with this instead. */
  override?: (stepRequest: number) => PromptReply | undefined;
}

/**
 * A model playing `script` for one turn: step requests are counted apart from summary requests, and tool call ids
 * depend on the step only, so two sessions playing the same script send the same bytes.
 */
export function sessionModel(script: SessionScript): PromptModel & { steps: LanguageModelV3CallOptions[] } {
  let step = 0;
  const steps: LanguageModelV3CallOptions[] = [];
  const model = promptModel(() => ({ text: '' }));
  const inner = promptModel((_prompt, n) => {
    const options = inner.requests[n] as LanguageModelV3CallOptions;
    if (isSummary(options))
      return { text: script.summary?.(options) ?? `## Task and user instructions\nsummary of ${n} requests so far` };
    const k = step++;
    steps.push(options);
    const o = script.override?.(k);
    if (o) return o;
    const lines = script.steps[k];
    if (lines === undefined) return { text: 'done' };
    if (typeof lines === 'string')
      return { calls: [{ toolName: 'read', input: { filePath: lines }, id: `call-${k}` }] };
    return { calls: [{ toolName: 'bash', input: { command: logCommand(k, lines) }, id: `call-${k}` }] };
  });
  return Object.assign(inner, { steps, doGenerate: model.doGenerate });
}

/** Allow every bash command in the harness (no permission prompts in these tests). */
export async function allowBash(h: Harness): Promise<void> {
  await h.svc.saveSettings({
    ...h.svc.getSettings(),
    permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
  });
}
