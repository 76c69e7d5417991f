/**
 * The replay provider: a LanguageModelV3 (the AI SDK's model interface) that plays a recorded session's calls
 * (replay/plan.ts) as if a model were sending them — one tool call per step, and a closing text at the end of each
 * turn: the recording's own words when it has them (source.json `replies`: `before` goes out with the turn's first
 * call, `after` closes it), followed by a line saying which turn of the replay ended. With `paceMs` (the app's attended replay) text is
 * streamed a word at a time, `paceMs` apart, as a model would; without it everything is sent at once. Because it
 * is a model, a replay runs through exactly the same loop as live output: snapshots,
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
import type { RecordedReply } from '../replay/corpus';

/** How the replay speaks: the recording's words per turn, and the pause between streamed words (ms; 0 = none). */
export interface ReplayVoice {
  replies?: readonly RecordedReply[];
  paceMs?: number;
}

/** `text` cut into words with their trailing spaces (what a paced stream sends one at a time). */
export function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** The stream parts of one text, as one text block (`id`), a delta per word when paced, else one delta. */
function textParts(id: string, text: string, paced: boolean): LanguageModelV3StreamPart[] {
  const deltas = paced ? words(text) : [text];
  return [
    { type: 'text-start', id },
    ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
  ];
}

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
    private readonly voice: ReplayVoice = {},
  ) {}

  /** Number of turns in the plan. */
  get turns(): number {
    return this.plan.turns.length;
  }

  /** The next call (with the turn's `before` words when it is the turn's first) or the turn's closing text. */
  private next(): { call?: PlannedCall; text?: string } {
    const turn = this.plan.turns[this.turn];
    if (!turn) return { text: 'Replay finished: no recorded calls left.' };
    const reply = this.voice.replies?.[this.turn];
    const call = turn[this.call];
    if (call) {
      this.call++;
      return this.call === 1 && reply?.before ? { call, text: reply.before } : { call };
    }
    const mark = `Replayed turn ${this.turn + 1} of ${this.plan.turns.length} (${turn.length} calls).`;
    const done = reply?.after ? `${reply.after}\n\n${mark}` : mark;
    this.turn++;
    this.call = 0;
    return { text: done };
  }

  private parts(): LanguageModelV3StreamPart[] {
    const { call, text } = this.next();
    const paced = (this.voice.paceMs ?? 0) > 0;
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (text) parts.push(...textParts('t', text, paced));
    if (call) {
      parts.push({
        type: 'tool-call',
        toolCallId: call.callId,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      });
      parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } });
    } else {
      if (!text) parts.push(...textParts('t', '', false));
      parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } });
    }
    return parts;
  }

  /**
   * Stream the next recorded call (or the turn's closing text); paced, a text delta waits `paceMs` before it
   * goes out, and an abort ends the stream with the abort's reason.
   */
  doStream(options: LanguageModelV3CallOptions): PromiseLike<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const parts = this.parts();
    const pace = this.voice.paceMs ?? 0;
    let i = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async pull(controller) {
        const part = parts[i++];
        if (!part) return controller.close();
        if (pace > 0 && part.type === 'text-delta') await pause(pace, signal);
        if (signal?.aborted) return controller.error(signal.reason);
        controller.enqueue(part);
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
              ...(text ? [{ type: 'text' as const, text }] : []),
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

/** Resolves after `ms`, or at once when `signal` aborts (the caller then checks `signal.aborted`). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
