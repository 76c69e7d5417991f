/**
 * The replay provider: a LanguageModelV3 (the AI SDK's model interface) that plays a recorded session's calls
 * (replay/plan.ts) as if a model were sending them — one tool call per step, and a short closing text at the end
 * of each turn. Because it is a model, a replay runs through exactly the same loop as live output: snapshots,
 * parts, permissions, the edit engine, events. It is a real provider (command line `landfall replay`, the app's
 * replay action), not a test fixture.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import type { PlannedCall, ReplayPlan } from '../replay/plan';

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** Plays `plan` turn by turn. `nextTurn()` is implicit: after a turn's last call the model answers with text. */
export class ReplayModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'landfall-replay';
  readonly supportedUrls = {};
  private turn = 0;
  private call = 0;

  constructor(
    private readonly plan: ReplayPlan,
    readonly modelId = 'replay',
  ) {}

  /** Number of turns in the plan. */
  get turns(): number {
    return this.plan.turns.length;
  }

  private next(): { call?: PlannedCall; text?: string } {
    const turn = this.plan.turns[this.turn];
    if (!turn) return { text: 'Replay finished: no recorded calls left.' };
    const call = turn[this.call];
    if (call) {
      this.call++;
      return { call };
    }
    const done = `Replayed turn ${this.turn + 1} of ${this.plan.turns.length} (${turn.length} calls).`;
    this.turn++;
    this.call = 0;
    return { text: done };
  }

  private parts(): LanguageModelV3StreamPart[] {
    const { call, text } = this.next();
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (call) {
      parts.push({
        type: 'tool-call',
        toolCallId: call.callId,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      });
      parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
    } else {
      parts.push(
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: text ?? '' },
        { type: 'text-end', id: 't' },
      );
      parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } });
    }
    return parts;
  }

  /** Stream the next recorded call (or the turn's closing text). */
  doStream(options: LanguageModelV3CallOptions): PromiseLike<LanguageModelV3StreamResult> {
    if (options.abortSignal?.aborted) return Promise.reject(options.abortSignal.reason as Error);
    const parts = this.parts();
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const p of parts) controller.enqueue(p);
        controller.close();
      },
    });
    return Promise.resolve({ stream });
  }

  /** Non-streaming form of the same: the next call or text as content. */
  doGenerate(): PromiseLike<LanguageModelV3GenerateResult> {
    const { call, text } = this.next();
    return Promise.resolve(
      call
        ? {
            content: [
              {
                type: 'tool-call',
                toolCallId: call.callId,
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: USAGE,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: text ?? '' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: USAGE,
            warnings: [],
          },
    );
  }
}
