/**
 * Test support for the conversation layer: an AI SDK mock model (`ai/test`) that answers each request with the
 * next scripted reply — a tool call or text, with the usage a provider would report — and keeps every call's
 * provider-level options (what the model was sent); and a harness service whose date can be moved.
 */
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { harness } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

/** One scripted answer: text, or one tool call; `usage` as the provider reports it (input, cached input, output). */
export type MockReply = ({ text: string } | { tool: string; args: Record<string, unknown> }) & {
  usage?: { input: number; cached?: number; output: number };
};

function usageOf(u: MockReply['usage']): LanguageModelV3Usage {
  return {
    inputTokens: { total: u?.input, noCache: undefined, cacheRead: u?.cached, cacheWrite: undefined },
    outputTokens: { total: u?.output, text: u?.output, reasoning: undefined },
  };
}

function parts(reply: MockReply, n: number): LanguageModelV3StreamPart[] {
  const out: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in reply) {
    out.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: reply.text },
      { type: 'text-end', id: 't' },
    );
    out.push({ type: 'finish', usage: usageOf(reply.usage), finishReason: { unified: 'stop', raw: 'stop' } });
    return out;
  }
  out.push({ type: 'tool-call', toolCallId: `call_${n}`, toolName: reply.tool, input: JSON.stringify(reply.args) });
  out.push({ type: 'finish', usage: usageOf(reply.usage), finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
  return out;
}

/** A mock model playing `script` in order ("done" once it is used up); `doStreamCalls` holds what it was sent. */
export function mockModel(script: MockReply[]): MockLanguageModelV3 {
  const queue = [...script];
  let n = 0;
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'scripted',
    doStream: () => {
      const reply = queue.shift() ?? { text: 'done' };
      const list = parts(reply, ++n);
      return Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            for (const p of list) c.enqueue(p);
            c.close();
          },
        }),
      });
    },
  });
}

/** The system text and the other messages of a mock model's `i`th call. */
export function sent(model: MockLanguageModelV3, i: number): { system: string; messages: unknown[] } {
  const prompt = model.doStreamCalls[i]?.prompt ?? [];
  return {
    system: prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n'),
    messages: prompt.filter((m) => m.role !== 'system'),
  };
}

/** A harness whose conversation layer reads the date from `day.value` (set it to roll the date over). */
export async function datedHarness(root?: string): Promise<Harness & { day: { value: string } }> {
  const day = { value: '2026-12-02' };
  const h = await harness({ context: { today: () => day.value } }, root);
  return Object.assign(h, { day });
}
