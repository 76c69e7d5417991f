/**
 * The events the core (AgentService) pushes to its listeners — the renderer over IPC, the web host over WebSocket,
 * the command line to the terminal. Each is a zod schema plus its inferred type; all are plain JSON.
 *
 * Ordering: events of one session are emitted in the order they happened. Events that explain a stored change
 * (part.updated, message.added, session.updated, snapshot.added, permission.*) carry `seq`, the sequence number of
 * the row written to the append-only event log in the same transaction (gap-free per database). Stream deltas
 * (text.delta, reasoning.delta) are not stored one by one — the part they grow is stored when it closes — so they
 * carry no `seq`; nor does `progress` (progress-schemas.ts), which is never stored.
 */
import { z } from 'zod';
import { MessageSchema, PartSchema, SessionSchema } from './model';
import { PermissionAnsweredSchema, PermissionAskedSchema } from './permission-schemas';
import { ProgressEventSchema } from './progress-schemas';

const seq = z.number().int().positive();

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
  z.object({ type: z.literal('part.updated'), seq, part: PartSchema }),
  /** A message was added to a session. */
  z.object({ type: z.literal('message.added'), seq, message: MessageSchema }),
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
  /** A tool call waits for the user's answer (permission-schemas.ts). */
  PermissionAskedSchema,
  /** The answer to a permission question (permission-schemas.ts). */
  PermissionAnsweredSchema,
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
  /**
   * The question tool's question is open and may be answered (tool part `partId`; the spec with defaults filled in).
   * Not stored: the running tool part is the stored question.
   */
  z.object({
    type: z.literal('question.asked'),
    sessionId: z.string(),
    partId: z.string(),
    question: z.object({
      question: z.string(),
      header: z.string().optional(),
      options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
      multiple: z.boolean(),
      custom: z.boolean(),
    }),
  }),
  /** The session's queued messages changed (admitted, edited, removed, promoted): the ones still queued, oldest first. */
  z.object({
    type: z.literal('queue.updated'),
    sessionId: z.string(),
    items: z.array(
      z.object({ id: z.string(), sessionId: z.string(), text: z.string(), time: z.number(), steer: z.boolean() }),
    ),
  }),
  /** Session row changed (title, revert boundary), or was created. */
  z.object({ type: z.literal('session.updated'), seq, session: SessionSchema }),
  /** Session was deleted. */
  z.object({ type: z.literal('session.deleted'), seq, sessionId: z.string() }),
  /** A long operation's progress (progress-schemas.ts): throttled, not stored, always ended. */
  ProgressEventSchema,
]);

export type CoreEvent = z.infer<typeof coreEventSchema>;
export type CoreEventType = CoreEvent['type'];
/** The event of one type, e.g. `EventOf<'part.updated'>`. */
export type EventOf<T extends CoreEventType> = Extract<CoreEvent, { type: T }>;
/** A listener registered with AgentService.on(). */
export type CoreListener = (event: CoreEvent) => void;
