/**
 * Test support: a mock model (AI SDK LanguageModelV3) whose every step is decided by a function of the prompt it
 * was sent — so a test can answer with a tool call naming a path that only exists in an earlier tool result, and
 * assert on exactly what each request carried (`requests`, the prompts in order). `reply` answers text, one or
 * more tool calls, or an error to throw from the request (a provider failure before any streamed part).
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';

export type PromptReply =
  | { text: string }
  | { calls: { toolName: string; input: Record<string, unknown>; id?: string }[] }
  | { error: unknown };

export interface PromptModel extends LanguageModelV3 {
  requests: LanguageModelV3CallOptions[];
}

function streamOf(reply: Exclude<PromptReply, { error: unknown }>, n: number): LanguageModelV3StreamPart[] {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in reply) {
    parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: reply.text });
    parts.push(
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    );
    return parts;
  }
  reply.calls.forEach((c, i) =>
    parts.push({
      type: 'tool-call',
      toolCallId: c.id ?? `c${n}-${i}`,
      toolName: c.toolName,
      input: JSON.stringify(c.input),
    }),
  );
  parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage });
  return parts;
}

/** A model answering request n (0-based) with `reply(prompt, n)`; see the module docstring. */
export function promptModel(
  reply: (prompt: LanguageModelV3CallOptions['prompt'], n: number) => PromptReply,
  modelId = 'prompt-model',
): PromptModel {
  const requests: LanguageModelV3CallOptions[] = [];
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId,
    supportedUrls: {},
    requests,
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream: (options) => {
      const n = requests.length;
      requests.push(options);
      const r = reply(options.prompt, n);
      if ('error' in r) return Promise.reject(r.error);
      const parts = streamOf(r, n);
      return Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      });
    },
  };
}

/** Every text of a prompt (system, user, assistant, tool results), joined: what the model could read. */
export function promptText(prompt: LanguageModelV3CallOptions['prompt']): string {
  return JSON.stringify(prompt);
}
