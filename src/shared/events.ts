/**
 * The events the core (AgentService) pushes to its listeners — the renderer over IPC, the web host over WebSocket,
 * the command line to the terminal. Each is a zod schema plus its inferred type; all are plain JSON.
 *
 * Ordering: events of one session are emitted in the order they happened. Events that explain a stored change
 * (part.updated, message.added, session.updated, snapshot.added, permission.*) carry `seq`, the sequence number of
 * the row written to the append-only event log in the same transaction (gap-free per database). Stream deltas
 * (text.delta, reasoning.delta) are not stored one by one — the part they grow is stored when it closes — so they
 * carry no `seq`.
 */
import { z } from 'zod';

const fileChange = z.object({
  file: z.string(),
  patch: z.string().optional(),
  additions: z.number(),
  deletions: z.number(),
});

const partBase = { id: z.string(), sessionId: z.string(), messageId: z.string(), time: z.number() };

/** A part of a message (mirrors `Part` in model.ts). */
export const partSchema = z.discriminatedUnion('type', [
  z.object({ ...partBase, type: z.literal('text'), text: z.string() }),
  z.object({ ...partBase, type: z.literal('reasoning'), text: z.string() }),
  z.object({
    ...partBase,
    type: z.literal('tool'),
    tool: z.string(),
    callId: z.string(),
    state: z.enum(['pending', 'running', 'completed', 'error']),
    input: z.unknown(),
    output: z.string().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ ...partBase, type: z.literal('step-start'), snapshot: z.string() }),
  z.object({
    ...partBase,
    type: z.literal('step-finish'),
    snapshot: z.string(),
    reason: z.string().optional(),
    usage: z.object({ input: z.number(), output: z.number() }).optional(),
    error: z.object({ code: z.string(), message: z.string(), hint: z.string(), raw: z.string().optional() }).optional(),
  }),
  z.object({ ...partBase, type: z.literal('patch'), hash: z.string(), files: z.array(z.string()) }),
]);

export const messageSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: z.enum(['user', 'assistant']),
  time: z.number(),
});

export const revertStateSchema = z.object({
  messageId: z.string(),
  partId: z.string().optional(),
  snapshot: z.string(),
  diff: z.string(),
});

export const sessionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  created: z.number(),
  updated: z.number(),
  revert: revertStateSchema.optional(),
});

const seq = z.number().int().positive();

/**
 * What a permission question is about: reading, changing, running a bash command, reaching outside the project,
 * or writing into a repository's own `.git` folder (never covered by a rule or an "always" answer).
 */
export const permissionKind = z.enum(['read', 'edit', 'bash', 'external_directory', 'git_dir']);

/** Every event the core pushes. `type` is the discriminator. */
export const coreEventSchema = z.discriminatedUnion('type', [
  /** Streamed text of a text part (the part is stored when it ends). */
  z.object({
    type: z.literal('text.delta'),
    sessionId: z.string(),
    messageId: z.string(),
    partId: z.string(),
    delta: z.string(),
  }),
  /** Streamed reasoning text. */
  z.object({
    type: z.literal('reasoning.delta'),
    sessionId: z.string(),
    messageId: z.string(),
    partId: z.string(),
    delta: z.string(),
  }),
  /** A part was created or changed (tool state transitions, text closed, step-start/finish, patch). */
  z.object({ type: z.literal('part.updated'), seq, part: partSchema }),
  /** A message was added to a session. */
  z.object({ type: z.literal('message.added'), seq, message: messageSchema }),
  /** Messages were removed (cleanup after a revert, or session deleted). */
  z.object({ type: z.literal('message.removed'), seq, sessionId: z.string(), messageIds: z.array(z.string()) }),
  /** Parts were removed (cleanup of a part-level revert boundary). */
  z.object({
    type: z.literal('part.removed'),
    seq,
    sessionId: z.string(),
    messageId: z.string(),
    partIds: z.array(z.string()),
  }),
  /**
   * A tool call waits for the user's answer; `preview` is the diff the call would write. `patterns` are the
   * exact paths or the exact command asked about. `always` says what "always" would allow for the rest of the
   * session (`exact`: these very commands or paths; `editable`: the user may send a bash pattern instead), or
   * null when "always" is not offered (`git_dir`: a write into a repository's own .git folder). `reasons` say why
   * the rules could not allow it (e.g. "command substitution").
   */
  z.object({
    type: z.literal('permission.asked'),
    seq,
    requestId: z.string(),
    sessionId: z.string(),
    partId: z.string().optional(),
    tool: z.string(),
    permission: permissionKind,
    patterns: z.array(z.string()),
    title: z.string(),
    preview: z.array(fileChange).optional(),
    always: z
      .object({ exact: z.array(z.string()), editable: z.boolean(), note: z.string() })
      .nullable()
      .optional(),
    reasons: z.array(z.string()).optional(),
  }),
  /** The answer to a permission question; `granted` is what an "always" answer saved (exact values or `pattern …`). */
  z.object({
    type: z.literal('permission.answered'),
    seq,
    requestId: z.string(),
    sessionId: z.string(),
    answer: z.enum(['once', 'always', 'reject']),
    reason: z.string().optional(),
    granted: z.array(z.string()).optional(),
  }),
  /** A snapshot (tree hash) was taken at a step boundary. */
  z.object({
    type: z.literal('snapshot.added'),
    seq,
    sessionId: z.string(),
    messageId: z.string(),
    hash: z.string(),
    files: z.array(z.string()),
  }),
  /** The session started or finished a turn, or the turn ended with an error. */
  z.object({
    type: z.literal('session.state'),
    sessionId: z.string(),
    state: z.enum(['idle', 'busy', 'error']),
    error: z.object({ code: z.string(), message: z.string(), hint: z.string() }).optional(),
  }),
  /** Session row changed (title, revert boundary), or was created. */
  z.object({ type: z.literal('session.updated'), seq, session: sessionSchema }),
  /** Session was deleted. */
  z.object({ type: z.literal('session.deleted'), seq, sessionId: z.string() }),
]);

export type CoreEvent = z.infer<typeof coreEventSchema>;
export type CoreEventType = CoreEvent['type'];
/** The event of one type, e.g. `EventOf<'part.updated'>`. */
export type EventOf<T extends CoreEventType> = Extract<CoreEvent, { type: T }>;
/** A listener registered with AgentService.on(). */
export type CoreListener = (event: CoreEvent) => void;
