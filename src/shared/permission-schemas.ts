/**
 * Permission shapes that cross the renderer ⇄ main boundary (DESIGN §6): what a question is about, what the user
 * answers, and the two events that record both. Zod schemas with inferred types: the core's gate
 * (src/main/agent/permission/gate.ts) emits and keeps exactly these, the contract checks answers against them, and
 * the renderer draws them.
 */
import { z } from 'zod';
import { FileChangeSchema } from './model';

/**
 * What a permission question is about: reading, changing, running a bash command, reaching outside the project,
 * or writing into a repository's own `.git` folder (never covered by a rule or an "always" answer).
 */
export const PermissionKindSchema = z.enum(['read', 'edit', 'bash', 'external_directory', 'git_dir']);
export type PermissionKind = z.infer<typeof PermissionKindSchema>;

/**
 * An answer to a permission question: once, always (for the rest of the session), or reject with an optional
 * reason the model reads. `pattern`, with `always` on a bash question whose offer is editable, is the pattern the
 * user wrote instead of the exact command (src/main/agent/permission/always.ts judges it).
 */
export const PermissionReplySchema = z.object({
  answer: z.enum(['once', 'always', 'reject']),
  reason: z.string().max(10_000).optional(),
  pattern: z.string().max(2_000).optional(),
});
export type PermissionReply = z.infer<typeof PermissionReplySchema>;

/** What "always" would allow for the rest of the session, as the prompt shows it. */
export const AlwaysOfferSchema = z.object({
  /** What is allowed when the user does not edit it: exact commands or paths. */
  exact: z.array(z.string()),
  /** True when the user may replace it with a pattern (bash, one proven command). */
  editable: z.boolean(),
  /** Why it is exact only, or how a pattern is read. */
  note: z.string(),
});
export type AlwaysOffer = z.infer<typeof AlwaysOfferSchema>;

const seq = z.number().int().positive();

/**
 * A tool call waits for the user's answer; `preview` is the diff the call would write. `patterns` are the exact
 * paths or the exact command asked about. `always` says what "always" would allow, or null when "always" is not
 * offered (`git_dir`). `reasons` say why the rules could not allow it (e.g. "command substitution"). The gate keeps
 * each such event until it is answered: that is what a (re)connecting window is shown.
 */
export const PermissionAskedSchema = z.object({
  type: z.literal('permission.asked'),
  seq,
  requestId: z.string(),
  sessionId: z.string(),
  partId: z.string().optional(),
  tool: z.string(),
  permission: PermissionKindSchema,
  patterns: z.array(z.string()),
  title: z.string(),
  preview: z.array(FileChangeSchema).optional(),
  always: AlwaysOfferSchema.nullable().optional(),
  reasons: z.array(z.string()).optional(),
});
/** A permission question still waiting for an answer (the `permission.asked` event). */
export type PermissionAsk = z.infer<typeof PermissionAskedSchema>;

/** The answer to a permission question; `granted` is what an "always" answer saved (exact values or `pattern …`). */
export const PermissionAnsweredSchema = z.object({
  type: z.literal('permission.answered'),
  seq,
  requestId: z.string(),
  sessionId: z.string(),
  answer: PermissionReplySchema.shape.answer,
  reason: z.string().optional(),
  granted: z.array(z.string()).optional(),
});
