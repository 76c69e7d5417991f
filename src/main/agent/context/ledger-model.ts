/**
 * The ledger's tap on the model: `ledgerModel(model, tap)` wraps a model (AI SDK `wrapLanguageModel`) so every
 * request it sends — first attempts and retries alike — is recorded exactly as the provider receives it (the
 * provider-level prompt and tool list, after the SDK's conversion), and the usage the provider reports at the end
 * of the stream is added to the same record. A request that fails (an HTTP 400, a dropped connection) stays
 * recorded without usage: it was sent.
 */
import { wrapLanguageModel } from 'ai';
import type { LanguageModel } from 'ai';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { LedgerUsage } from '../../session/ledger';

/** A request as sent: system text (system messages joined by a blank line), the tools, the other messages. */
export interface SentRequest {
  model: string;
  system: string;
  tools: unknown[];
  messages: unknown[];
}

/** Called once per request before it goes out; returns what to call with the usage when the stream finishes. */
export type LedgerTap = (req: SentRequest) => (usage: LedgerUsage) => void;

/** The pieces of a provider-level call, split as the ledger stores them. */
export function splitRequest(model: string, params: LanguageModelV3CallOptions): SentRequest {
  const system = params.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  return { model, system, tools: params.tools ?? [], messages: params.prompt.filter((m) => m.role !== 'system') };
}

function usageOf(part: Extract<LanguageModelV3StreamPart, { type: 'finish' }>): LedgerUsage {
  const u = part.usage;
  const out: LedgerUsage = {};
  if (u.inputTokens.total !== undefined) out.input = u.inputTokens.total;
  if (u.inputTokens.cacheRead !== undefined) out.cachedInput = u.inputTokens.cacheRead;
  if (u.outputTokens.total !== undefined) out.output = u.outputTokens.total;
  return out;
}

function isV3(model: LanguageModel): model is LanguageModelV3 {
  return typeof model === 'object' && (model as { specificationVersion?: string }).specificationVersion === 'v3';
}

/**
 * `model` with every streamed request passed to `tap`. A model given by id string or of an older specification
 * is returned unwrapped (Landfall's providers and the replay provider are all v3 models).
 */
export function ledgerModel(model: LanguageModel, tap: LedgerTap): LanguageModel {
  if (!isV3(model)) return model;
  const name = `${model.provider}:${model.modelId}`;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream, params }) => {
        const done = tap(splitRequest(name, params));
        const result = await doStream();
        const stream = result.stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            transform(part, controller) {
              if (part.type === 'finish') done(usageOf(part));
              controller.enqueue(part);
            },
          }),
        );
        return { ...result, stream };
      },
    },
  });
}
