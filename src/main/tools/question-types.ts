/**
 * The shapes of the question tool (question.ts) shared by the tool, the broker that waits for the user
 * (agent/questions.ts) and the tool context: what the model asks, and what comes back.
 */

/** One option the user may pick; `label` is what the model reads back. */
export interface QuestionOption {
  label: string;
  description?: string;
}

/** A question as the model asked it: 0–4 options, single or multiple choice, and/or a free answer (`custom`). */
export interface QuestionSpec {
  question: string;
  header?: string;
  options: QuestionOption[];
  multiple: boolean;
  custom: boolean;
}

/**
 * The outcome of a question: answered (labels picked, in the options' order, and/or the free text), dismissed
 * (the user closed it, Esc), or stopped (the turn was stopped while it waited).
 */
export type QuestionOutcome =
  { kind: 'answered'; selected: string[]; text?: string } | { kind: 'dismissed' } | { kind: 'stopped' };

/** Asks the user; resolves when answered, dismissed or stopped (`signal`). Absent from the context: no user. */
export type QuestionPort = (spec: QuestionSpec, partId: string, signal?: AbortSignal) => Promise<QuestionOutcome>;
