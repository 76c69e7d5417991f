/**
 * A scripted model for the conversation-layer tests: the AI SDK's MockLanguageModelV3 (`ai/test`) answering each
 * request with the next scripted step (tool calls and/or text, optional reported usage), and recording every
 * request it was sent (`requests`: prompt, tools, tool choice) so a test asserts on what the model saw.
 * A step may be a function of the request (to answer what the model was told). Past the script: "Done.".
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted answer. `tokens`: the usage reported (input, output) — omitted means none reported. */
export interface ScriptedStep {
  calls?: { toolName: string; input: unknown; callId?: string }[];
  text?: string;
  tokens?: { input: number; output: number };
  /** Resolve before the step streams (a test holds the model here while it acts, e.g. switches mode). */
  hold?: Promise<void>;
}

export type ScriptEntry = ScriptedStep | ((request: LanguageModelV3CallOptions) => ScriptedStep);

let callSeq = 0;

function streamParts(step: ScriptedStep): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (step.text !== undefined)
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: step.text },
      { type: 'text-end', id: 't' },
    );
  for (const c of step.calls ?? [])
    parts.push({
      type: 'tool-call',
      toolCallId: c.callId ?? `call_${++callSeq}`,
      toolName: c.toolName,
      input: JSON.stringify(c.input),
    });
  const calls = (step.calls ?? []).length > 0;
  const t = step.tokens;
  parts.push({
    type: 'finish',
    usage: {
      inputTokens: { total: t?.input, noCache: t?.input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: t?.output, text: t?.output, reasoning: undefined },
    },
    finishReason: calls ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
  });
  return parts;
}

/** A model playing `script`, one entry per request; `requests` is what it was sent, in order. */
export function stepModel(
  script: ScriptEntry[],
  modelId = 'scripted',
): { model: MockLanguageModelV3; requests: LanguageModelV3CallOptions[] } {
  let n = 0;
  const model = new MockLanguageModelV3({
    provider: 'test',
    modelId,
    doStream: async (options) => {
      const entry = script[n++] ?? { text: 'Done.' };
      const step = typeof entry === 'function' ? entry(options) : entry;
      if (step.hold) await step.hold;
      const parts = streamParts(step);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
  return { model, requests: model.doStreamCalls };
}

/** The text of every tool result in a request's prompt, in order. */
export function toolResults(request: LanguageModelV3CallOptions): { toolName: string; text: string }[] {
  const out: { toolName: string; text: string }[] = [];
  for (const m of request.prompt) {
    if (m.role !== 'tool') continue;
    for (const c of m.content) {
      if (c.type !== 'tool-result') continue;
      const o = c.output as { type: string; value?: unknown };
      out.push({ toolName: c.toolName, text: typeof o.value === 'string' ? o.value : JSON.stringify(o.value) });
    }
  }
  return out;
}

/** Names of the tools a request offered. */
export function offeredTools(request: LanguageModelV3CallOptions): string[] {
  return (request.tools ?? []).map((t) => t.name);
}
