/**
 * What the conversation layer shows across the process boundary (DESIGN §11): one request of the ledger (exact
 * pieces, tokens by category, the model's window, the change against the request before it), the baseline's
 * sources (which instruction files were loaded, their size, what the per-file cap cut), and the context meter.
 */
import { z } from 'zod';

/** The model's window in tokens and where the figure came from (`fallback`: no figure known for the model). */
export const ContextWindowSchema = z.object({
  tokens: z.number().int().positive(),
  source: z.enum(['settings', 'catalog', 'fallback']),
});

/** Token counts of a request by category (estimates: o200k_base), and their sum. */
export const TokensByCategorySchema = z.object({
  system: z.number().int(),
  instructions: z.number().int(),
  tools: z.number().int(),
  history: z.number().int(),
  toolResults: z.number().int(),
  total: z.number().int(),
});

/** The provider's reported usage of a request (absent fields: not reported). */
export const ProviderUsageSchema = z.object({
  input: z.number().int().optional(),
  cachedInput: z.number().int().optional(),
  output: z.number().int().optional(),
});

/** How a request differs from the one before it (absent for the first request of a session). */
export const RequestChangeSchema = z.object({
  previous: z.number().int(),
  systemChanged: z.boolean(),
  toolsChanged: z.boolean(),
  /** Messages of the previous request this one starts with, unchanged. */
  keptMessages: z.number().int(),
  /** Messages of the previous request not at the start of this one (0 for a pure append). */
  droppedMessages: z.number().int(),
  /** Messages after the kept ones. */
  addedMessages: z.number().int(),
  /** Share (0–1) of this request's bytes (tools, system, messages as JSON, in that order) that the previous one started with. */
  sharedPrefix: z.number(),
});

/** One source of the baseline record, as shown to the user. */
export const ContextSourceViewSchema = z.object({
  key: z.string(),
  label: z.string(),
  present: z.boolean(),
  bytes: z.number().int().optional(),
  cutBytes: z.number().int().optional(),
  hash: z.string(),
});

/** The ledger's view of one request. */
export const ContextStepSchema = z.object({
  /** The request's number in the session (1-based) and how many there are. */
  step: z.number().int(),
  steps: z.number().int(),
  messageId: z.string(),
  /** The step of its turn (1-based). */
  turnStep: z.number().int(),
  time: z.number(),
  model: z.string(),
  window: ContextWindowSchema,
  tokens: TokensByCategorySchema,
  usage: ProviderUsageSchema.optional(),
  /** Tokens in use after this request: the provider's input + output when reported, else the estimate. */
  inUse: z.number().int(),
  change: RequestChangeSchema.optional(),
  request: z.object({ system: z.string(), tools: z.array(z.unknown()), messages: z.array(z.unknown()) }),
});
export type ContextStep = z.infer<typeof ContextStepSchema>;

/** The context meter and the baseline record of a session (what `context.get` answers). */
export const ContextViewSchema = z.object({
  sessionId: z.string(),
  /** Per-file cap of instruction files in bytes (stated in the UI). */
  instructionCapBytes: z.number().int(),
  /** The source record in force (empty before the first model call). */
  sources: z.array(ContextSourceViewSchema),
  /** The requested step (default the last); absent before the first request. */
  step: ContextStepSchema.optional(),
});
export type ContextView = z.infer<typeof ContextViewSchema>;
