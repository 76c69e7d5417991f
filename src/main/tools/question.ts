/**
 * The question tool: the model asks the user (1–4 options, single or multiple choice, and/or a free answer) and
 * the turn waits for the answer (ctx.question, agent/questions.ts). The running tool part IS the open question —
 * the chat draws its card from it — so the answer is stored like any tool result, a stop ends it (`interrupted`,
 * by the tool runner), and a question open when Landfall closed is answered `interrupted` on the next start by
 * the store's crash recovery: never asked again silently.
 *
 * What the model reads: `The user answered: …` (labels in the options' order, then the free text), or the
 * `dismissed` error (the user closed the question without answering).
 */
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { toolProse } from './prose';
import type { QuestionOutcome, QuestionSpec } from './question-types';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolFailure } from './types';

const optionSchema = z.object({
  label: z.string().min(1).max(200).describe('What the user picks (short).'),
  description: z.string().max(500).optional().describe('One line saying what this choice means.'),
});

const questionInput = z
  .object({
    question: z.string().min(1).max(2000).describe('The question, in one or two sentences.'),
    header: z.string().max(40).optional().describe('A very short title (e.g. "Database").'),
    options: z.array(optionSchema).max(4).optional().describe('1 to 4 choices; omit for a free answer only.'),
    multiple: z.boolean().optional().describe('True when the user may pick several options (default false).'),
    custom: z.boolean().optional().describe('Allow a typed answer besides the options (default true).'),
  })
  .refine((q) => (q.options?.length ?? 0) > 0 || q.custom !== false, {
    message: 'Give 1 to 4 options, or allow a free answer (custom).',
  })
  .refine((q) => new Set((q.options ?? []).map((o) => o.label)).size === (q.options ?? []).length, {
    message: 'Two options have the same label.',
  });
export type QuestionInput = z.infer<typeof questionInput>;

/** The spec the user is shown: defaults filled in (single choice, free answer allowed). */
export function questionSpec(input: QuestionInput): QuestionSpec {
  return {
    question: input.question,
    ...(input.header ? { header: input.header } : {}),
    options: input.options ?? [],
    multiple: input.multiple ?? false,
    custom: input.custom ?? true,
  };
}

/** The text the model reads for an answer. */
export function answerText(outcome: Extract<QuestionOutcome, { kind: 'answered' }>): string {
  const parts: string[] = [];
  if (outcome.selected.length > 0) parts.push(outcome.selected.join(', '));
  if (outcome.text !== undefined && outcome.text !== '') parts.push(`"${outcome.text}"`);
  return `The user answered: ${parts.join('; ')}`;
}

async function executeQuestion(input: QuestionInput, ctx: ToolContext): Promise<ToolOutcome> {
  if (!ctx.question || !ctx.partId)
    return toolFailure(
      fail('unavailable', 'Nobody can answer questions here.', 'Decide yourself and say what you assumed.').error,
    );
  const spec = questionSpec(input);
  const outcome = await ctx.question(spec, ctx.partId, ctx.signal);
  if (outcome.kind === 'dismissed')
    return toolFailure(
      fail(
        'dismissed',
        'The user dismissed the question without answering.',
        'Do not assume an answer: go on with what does not depend on it, or say what you need to know.',
      ).error,
    );
  if (outcome.kind === 'stopped')
    return toolFailure(
      fail('interrupted', 'The turn was stopped while the question waited.', 'Wait for the user.').error,
    );
  return {
    ok: true,
    title: spec.header ?? 'question',
    output: answerText(outcome),
    metadata: { answer: { selected: outcome.selected, ...(outcome.text !== undefined ? { text: outcome.text } : {}) } },
  };
}

export const questionTool: ToolDefinition<QuestionInput> = {
  name: 'question',
  description: toolProse(new URL('./question.md', import.meta.url)),
  input: questionInput,
  execute: executeQuestion,
};
