/**
 * Contract shapes of the conversation layer (modes and models, the question card, the repetition stop's card):
 * what the chat's picker shows and sends, an answer to a question, a decision after a repetition stop. Mirrors
 * src/main/agent/talk-service.ts `TalkView`, src/main/agent/questions.ts `QuestionReply` and
 * src/main/agent/loop-decision.ts.
 */
import { z } from 'zod';

const id = z.string().min(1).max(200);

/** The session's mode and model (resolved: always set) and what may be chosen. */
export const TalkViewSchema = z.object({
  mode: z.string(),
  provider: z.string(),
  model: z.string(),
  modes: z.array(
    z.object({ name: z.string(), instructions: z.string(), tools: z.union([z.array(z.string()), z.literal('*')]) }),
  ),
  /** Each provider with its default model and every model its list offers (the default first). */
  providers: z.array(z.object({ id: z.string(), model: z.string(), models: z.array(z.string()) })),
});
export type TalkViewData = z.infer<typeof TalkViewSchema>;

/** A change of mode and/or model for the session's next step. */
export const TalkSetSchema = z.object({
  sessionId: id,
  mode: z.string().min(1).max(64).optional(),
  provider: z.string().min(1).max(200).optional(),
  model: z.string().max(200).optional(),
});

/** An answer to the question tool's open question (its tool part): labels and/or text, or dismiss. */
export const QuestionAnswerSchema = z.object({
  sessionId: id,
  partId: id,
  selected: z.array(z.string().max(200)).max(4).optional(),
  text: z.string().max(10_000).optional(),
  dismiss: z.boolean().optional(),
});

/** A queued message as the chat shows it (session/inbox.ts InboxItem, still queued). */
export const QueuedItemSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  text: z.string(),
  time: z.number(),
  steer: z.boolean(),
});

/** Send through the admission queue; `steer`: "send now", promoted at the running turn's next step boundary. */
export const QueueSendSchema = z.object({
  sessionId: id,
  text: z.string().min(1).max(200_000),
  steer: z.boolean().optional(),
});

/** Edit a queued message (its text, its "send now" flag). */
export const QueueEditSchema = z.object({
  sessionId: id,
  id,
  text: z.string().min(1).max(200_000).optional(),
  steer: z.boolean().optional(),
});

/**
 * The user's decision on a turn stopped for repeating one call (its `loop-stop` part): "Go on" (`continue`, a new
 * turn) or "Stop here" (`stop`).
 */
export const LoopAnswerSchema = z.object({
  sessionId: id,
  partId: id,
  decision: z.enum(['continue', 'stop']),
});

/** What a decision did: `started` when "Go on" started the new turn. */
export const LoopAnsweredSchema = z.object({ decision: z.enum(['continue', 'stop']), started: z.boolean() });
