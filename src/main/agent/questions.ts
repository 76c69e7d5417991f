/**
 * The question broker: where a question tool call (tools/question.ts) waits for the user. Questions are keyed by
 * their tool part (the running part is the open question the chat shows), so an answer names the part.
 *
 * An answer is checked against the question before it is taken: labels that are options, one at most for a single
 * choice, free text only when allowed, something chosen or typed — else `invalid_input` and the question stays
 * open. A stop ends every question of the session (`stopped`).
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { QuestionOutcome, QuestionPort, QuestionSpec } from '../tools/question-types';

/** What the user sent: picked labels and/or free text, or `dismiss` (Esc). */
export interface QuestionReply {
  selected?: string[];
  text?: string;
  dismiss?: boolean;
}

interface Waiting {
  sessionId: string;
  spec: QuestionSpec;
  resolve: (o: QuestionOutcome) => void;
}

/** Checks a reply against its question; the outcome in the options' order, or why it does not fit. */
export function judgeReply(spec: QuestionSpec, reply: QuestionReply): Result<QuestionOutcome> {
  if (reply.dismiss === true) return ok({ kind: 'dismissed' });
  const picked = new Set(reply.selected ?? []);
  const labels = spec.options.map((o) => o.label);
  const unknown = [...picked].filter((l) => !labels.includes(l));
  if (unknown.length > 0)
    return fail('invalid_input', `Not an option: ${unknown.join(', ')}.`, `Pick from: ${labels.join(', ')}.`);
  if (!spec.multiple && picked.size > 1)
    return fail('invalid_input', 'This question takes one choice.', 'Pick one option.');
  const text = reply.text?.trim() ?? '';
  if (text !== '' && !spec.custom)
    return fail('invalid_input', 'This question takes no typed answer.', 'Pick one of the options.');
  if (picked.size === 0 && text === '')
    return fail('invalid_input', 'Nothing was chosen or typed.', 'Pick an option or type an answer, or dismiss.');
  const selected = labels.filter((l) => picked.has(l));
  return ok(text === '' ? { kind: 'answered', selected } : { kind: 'answered', selected, text });
}

/** One broker per service. */
export class QuestionBroker {
  private readonly waiting = new Map<string, Waiting>();

  /** `onOpen` is told when a question is open and may be answered (the service emits `question.asked`). */
  constructor(private readonly onOpen: (sessionId: string, partId: string, spec: QuestionSpec) => void = () => {}) {}

  /** The question port of a session's tool context. */
  portFor(sessionId: string): QuestionPort {
    return (spec, partId, signal) =>
      new Promise<QuestionOutcome>((resolve) => {
        if (signal?.aborted) return resolve({ kind: 'stopped' });
        const done = (o: QuestionOutcome): void => {
          this.waiting.delete(partId);
          signal?.removeEventListener('abort', onAbort);
          resolve(o);
        };
        const onAbort = (): void => done({ kind: 'stopped' });
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.set(partId, { sessionId, spec, resolve: done });
        this.onOpen(sessionId, partId, spec);
      });
  }

  /**
   * Answer the open question of tool part `partId`. Errors `invalid_input`: no such question is open in the
   * session (answered already, stopped, or interrupted by a restart), or the reply does not fit (judgeReply).
   */
  answer(sessionId: string, partId: string, reply: QuestionReply): Result<void> {
    const w = this.waiting.get(partId);
    if (!w || w.sessionId !== sessionId)
      return fail('invalid_input', 'That question is not open.', 'It was answered already or the turn was stopped.');
    const judged = judgeReply(w.spec, reply);
    if (!judged.ok) return judged;
    w.resolve(judged.value);
    return ok(undefined);
  }

  /** End every open question of a session (stop). */
  cancel(sessionId: string): void {
    for (const w of [...this.waiting.values()]) if (w.sessionId === sessionId) w.resolve({ kind: 'stopped' });
  }

  /** Open questions (tool part ids) of a session. */
  open(sessionId: string): string[] {
    return [...this.waiting.entries()].filter(([, w]) => w.sessionId === sessionId).map(([id]) => id);
  }
}
