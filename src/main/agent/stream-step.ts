/**
 * One model call of a step: `streamText` (AI SDK v6) limited to one step, tools declared WITHOUT `execute` so the
 * SDK never runs a tool itself — the loop runs them after the stream ended, when it knows the finish reason
 * (fixtures/bugs/README.md B23: a call whose arguments were cut off by the output limit must not run).
 *
 * Text and reasoning deltas are pushed as events as they arrive and stored as parts when they close (or when the
 * stream stops early, so partial text is kept). Errors before the first streamed part are retried per retry.ts;
 * after it, never. Stop wins over a provider that ignores the abort signal: each read of the stream races it.
 */
import { streamText, ToolChoiceViolationError } from 'ai';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { LandfallError } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import type { Part, StepUsage } from '../../shared/model';
import type { SessionStore } from '../session/store';
import { newId } from '../session/ids';
import { backoffMs, classifyProviderError, DEFAULT_RETRY, isRetryable, sleep } from './retry';
import type { RetryPolicy } from './retry';

/** A tool call as the model sent it. `invalid` when its input did not parse or did not fit the schema. */
export interface ModelToolCall {
  callId: string;
  toolName: string;
  input: unknown;
  invalid: boolean;
  error?: string;
}

export interface StepStreamResult {
  toolCalls: ModelToolCall[];
  finishReason: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'aborted';
  error?: LandfallError;
  /** Tokens the provider reported for the request (input, output); absent when it reported none. */
  usage?: StepUsage;
  /** Number of requests made (1 + retries). */
  attempts: number;
  /** Input + output tokens the provider reported for the step (undefined when it reported none). */
  tokens?: number;
}

export interface StepStreamInput {
  model: LanguageModel;
  system?: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  store: SessionStore;
  emit: (e: CoreEvent) => void;
  sessionId: string;
  messageId: string;
  retry?: RetryPolicy;
  /** `none`: the request keeps its tool list (byte-stable prefix) but allows no call (a turn's last step). */
  toolChoice?: 'auto' | 'none';
}

interface OpenText {
  part: Extract<Part, { type: 'text' | 'reasoning' }>;
  savedAt: number;
}

/** Streaming text is saved at most this often (ms), so a crash loses at most this much of it. */
const SAVE_EVERY_MS = 250;

class PartWriter {
  private open = new Map<string, OpenText>();
  constructor(private readonly input: StepStreamInput) {}

  delta(kind: 'text' | 'reasoning', streamId: string, delta: string): void {
    const key = `${kind}:${streamId}`;
    let cur = this.open.get(key);
    if (!cur) {
      const { sessionId, messageId } = this.input;
      cur = { part: { id: newId('prt'), sessionId, messageId, time: Date.now(), type: kind, text: '' }, savedAt: 0 };
      this.open.set(key, cur);
    }
    cur.part.text += delta;
    // The delta goes out BEFORE the save: a save emits part.updated with the whole text so far, and a listener
    // that applies "stored text, then later deltas" would show this delta twice if it came after the save.
    this.input.emit({
      type: kind === 'text' ? 'text.delta' : 'reasoning.delta',
      sessionId: this.input.sessionId,
      messageId: this.input.messageId,
      partId: cur.part.id,
      delta,
    });
    const now = Date.now();
    if (now - cur.savedAt >= SAVE_EVERY_MS) {
      cur.savedAt = now;
      this.input.store.putPart({ ...cur.part });
    }
  }

  close(kind: 'text' | 'reasoning', streamId: string): void {
    const key = `${kind}:${streamId}`;
    const cur = this.open.get(key);
    if (!cur) return;
    this.open.delete(key);
    if (cur.part.text !== '' || cur.savedAt > 0) this.input.store.putPart(cur.part);
  }

  /** Store whatever is still open (stop, error): partial text is kept. */
  closeAll(): void {
    for (const key of [...this.open.keys()]) {
      const [kind, id] = key.split(/:(.*)/s) as ['text' | 'reasoning', string];
      this.close(kind, id);
    }
  }
}

type Attempt = { started: boolean; result?: Omit<StepStreamResult, 'attempts'>; error?: unknown };
type StreamPart = ReturnType<typeof streamText>['fullStream'] extends AsyncIterable<infer P> ? P : never;
interface AttemptState extends Attempt {
  toolCalls: ModelToolCall[];
  finishReason: StepStreamResult['finishReason'];
  tokens?: number;
  usage?: StepUsage;
}

/** The provider's token counts of a finished step, or undefined when it sent none. */
function usageOf(usage: { inputTokens?: number; outputTokens?: number } | undefined): StepUsage | undefined {
  if (usage?.inputTokens === undefined && usage?.outputTokens === undefined) return undefined;
  return { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 };
}

/** Record one part of the SDK's full stream (deltas → writer, tool calls, finish reason, error). */
function onPart(part: StreamPart, state: AttemptState, writer: PartWriter): void {
  switch (part.type) {
    case 'text-delta':
      state.started = true;
      writer.delta('text', part.id, part.text);
      break;
    case 'text-end':
      writer.close('text', part.id);
      break;
    case 'reasoning-delta':
      state.started = true;
      writer.delta('reasoning', part.id, part.text);
      break;
    case 'reasoning-end':
      writer.close('reasoning', part.id);
      break;
    case 'tool-input-start':
      state.started = true;
      break;
    case 'tool-call':
      state.started = true;
      state.toolCalls.push({
        callId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        invalid: part.invalid === true,
        error: part.invalid === true ? String((part.error as Error | undefined)?.message ?? part.error) : undefined,
      });
      break;
    case 'finish-step': {
      state.finishReason = part.finishReason;
      const { inputTokens, outputTokens } = part.usage;
      if (inputTokens !== undefined || outputTokens !== undefined)
        state.tokens = (state.tokens ?? 0) + (inputTokens ?? 0) + (outputTokens ?? 0);
      const usage = usageOf(part.usage);
      if (usage) state.usage = usage;
      break;
    }
    case 'abort':
      state.finishReason = 'aborted';
      break;
    case 'error':
      state.error = part.error;
      break;
    default:
      break;
  }
}

/**
 * A tool call sent although the request's tool choice was `none` (a turn's last step): the SDK withholds it and
 * raises ToolChoiceViolationError. It is no provider failure — the calls are handed to the loop as the step's
 * calls, so each is stored and refused (`step_limit`, loop-guard.ts) and the model's text is kept.
 */
function refusedByToolChoice(state: AttemptState): void {
  if (!ToolChoiceViolationError.isInstance(state.error)) return;
  for (const c of state.error.content) {
    if (c.type !== 'tool-call') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(c.input) as unknown;
    } catch {
      parsed = {};
    }
    state.toolCalls.push({ callId: c.toolCallId, toolName: c.toolName, input: parsed, invalid: false });
  }
  state.error = undefined;
  state.finishReason = 'tool-calls';
}

const STOPPED = Symbol('stopped');

/** Resolves with STOPPED when `signal` aborts (at once when it already has). */
function whenAborted(signal: AbortSignal): Promise<typeof STOPPED> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(STOPPED);
    else signal.addEventListener('abort', () => resolve(STOPPED), { once: true });
  });
}

/**
 * One request. Every read of the stream races the abort signal: a provider that ignores the signal (never
 * answers, or hangs mid-stream) cannot keep a stopped turn running — the stream is abandoned, not awaited.
 */
async function attempt(input: StepStreamInput, writer: PartWriter): Promise<Attempt> {
  const state: AttemptState = { started: false, toolCalls: [], finishReason: 'other' };
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    tools: input.tools,
    ...(input.toolChoice ? { toolChoice: input.toolChoice } : {}),
    maxRetries: 0,
    abortSignal: input.signal,
    // Errors arrive as `error` stream parts and are classified below; the SDK's default console logging is noise.
    onError: () => undefined,
  });
  const stopped = whenAborted(input.signal);
  const parts = result.fullStream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([parts.next(), stopped]);
      if (next === STOPPED) {
        parts.return?.().catch(() => undefined);
        break;
      }
      if (next.done === true) break;
      onPart(next.value, state, writer);
      if (state.error !== undefined) break;
    }
  } catch (e) {
    state.error = e;
  }
  if (input.signal.aborted) state.finishReason = 'aborted';
  refusedByToolChoice(state);
  writer.closeAll();
  if (state.error !== undefined && state.finishReason !== 'aborted') return state;
  const done = {
    toolCalls: state.toolCalls,
    finishReason: state.finishReason,
    ...(state.tokens === undefined ? {} : { tokens: state.tokens }),
    ...(state.usage ? { usage: state.usage } : {}),
  };
  return { started: state.started, result: done };
}

/**
 * Stream one step of the model. Never throws for provider failures: they come back as `finishReason: 'error'`
 * with a classified `error` (`provider_error`, `context_length`).
 */
export async function streamStep(input: StepStreamInput): Promise<StepStreamResult> {
  const policy = input.retry ?? DEFAULT_RETRY;
  const writer = new PartWriter(input);
  for (let n = 1; ; n++) {
    const a = await attempt(input, writer);
    if (a.result) return { ...a.result, attempts: n };
    const canRetry = !a.started && n <= policy.maxRetries && isRetryable(a.error) && !input.signal.aborted;
    if (!canRetry) return { toolCalls: [], finishReason: 'error', error: classifyProviderError(a.error), attempts: n };
    try {
      await sleep(backoffMs(n, policy, a.error), input.signal);
    } catch {
      return { toolCalls: [], finishReason: 'aborted', attempts: n };
    }
  }
}
