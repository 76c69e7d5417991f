/**
 * The output cap through the real loop: a 2 MB bash log reaches the model as ≤ 6,000 tokens, cut at lines, with
 * the path of the whole output; the model reads that file with the read tool and nobody is asked; a read of any
 * other path outside the project still asks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { harness, type Harness } from '../testing/fixtures';
import { promptModel } from '../testing/prompt-model';
import { estimateTokens } from './tokens';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The text of every tool result in a prompt, in order. */
function toolResults(prompt: LanguageModelV3CallOptions['prompt']): string[] {
  const out: string[] = [];
  for (const m of prompt)
    if (m.role === 'tool')
      for (const c of m.content)
        if (c.type === 'tool-result' && (c.output.type === 'text' || c.output.type === 'error-text'))
          out.push(c.output.value);
  return out;
}

describe('tool output cap in the loop', () => {
  it('a 2 MB bash output: ≤ 6,000 tokens to the model, the saved file is read without a prompt', async () => {
    h = await harness();
    const asked: EventOf<'permission.asked'>[] = [];
    const x = h;
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      const answer = e.permission === 'bash' ? 'once' : 'reject';
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer }));
    });
    const outside = path.join(path.dirname(h.root), 'outside.txt');
    writeFileSync(outside, 'not for the model');
    const command = `seq 1 40000 | sed 's/.*/test & passed in 12 ms: renders <Widget id="&"\\/> ok/'`;
    let saved = '';
    const model = promptModel((prompt, n) => {
      if (n === 0) return { calls: [{ toolName: 'bash', input: { command } }] };
      if (n === 1) {
        saved = /The whole output is in (\S+) —/.exec(toolResults(prompt)[0] ?? '')?.[1] ?? '';
        return { calls: [{ toolName: 'read', input: { filePath: saved, offset: 39999 } }] };
      }
      if (n === 2) return { calls: [{ toolName: 'read', input: { filePath: outside } }] };
      return { text: 'done' };
    });
    const s = h.newSession();
    const r = await h.svc.runWithModel(s, model, 'run the tests');
    expect(r.ok && r.value.finishReason).toBe('stop');
    const full = readFileSync(saved, 'utf8');
    expect(Buffer.byteLength(full)).toBeGreaterThan(2 * 1024 * 1024);
    expect(full.endsWith('test 40000 passed in 12 ms: renders <Widget id="40000"/> ok\n(exit code 0)')).toBe(true);
    const shown = toolResults(model.requests[1]?.prompt ?? [])[0] ?? '';
    const tokens = estimateTokens(shown);
    console.log(`2 MB bash output (${Buffer.byteLength(full)} bytes) reached the model as ${tokens} tokens`);
    expect(tokens).toBeLessThanOrEqual(6_000);
    expect(shown.startsWith('test 1 passed in 12 ms')).toBe(true);
    expect(shown.endsWith('test 40000 passed in 12 ms: renders <Widget id="40000"/> ok\n(exit code 0)')).toBe(true);
    expect(shown).toMatch(/\[output cut: [\d,]+ lines \([\d,]+ bytes\) left out of 40,001 lines/);
    const results = toolResults(model.requests[3]?.prompt ?? []);
    expect(results[1]).toBe(
      '39999: test 39999 passed in 12 ms: renders <Widget id="39999"/> ok\n40000: test 40000 passed in 12 ms: renders <Widget id="40000"/> ok\n40001: (exit code 0)',
    );
    // every other path outside the project is refused at once, with no question (tool-runner.ts)
    expect(results[2]).toMatch(/^Error \(outside_root\)/);
    expect(asked.map((e) => e.permission)).toEqual(['bash']);
  });
});
