/**
 * The one contract between the renderer and main (DESIGN §1, §10): an entry per call (`input` / `output` zod
 * schemas) and per event (`payload` schema). Both transports — Electron IPC (preload) and the web host's
 * WebSocket — carry exactly these entries; main parses every input with `input` before a service sees it and answers
 * a bad one with `invalid_input` as data. Every answer is a `Result` (errors.ts): nothing crosses by `throw`.
 */
import { z } from 'zod';
import type { Result } from './errors';
import { IMPORT_PART_MAX_CHARS } from './limits';
import { ContextViewSchema } from './context-schemas';
import type { CallName, EventName } from './contract-names';
import { coreEventSchema } from './events';
import type { CoreEventType, EventOf } from './events';
import { AppInfoSchema, SessionDetailSchema } from './contract-schemas';
import {
  ModelWindowSchema,
  SettingsChangedSchema,
  SettingsSaveSchema,
  SettingsTestSchema,
  SettingsViewSchema,
  SettingsWindowsSchema,
} from './settings-schemas';
import { KeptFileSchema } from './history-schemas';
import { PartSchema, ProjectSchema, SessionSchema } from './model';
import { RunningTurnSchema } from './running-schemas';
import { SessionSearchHitSchema, SessionSearchInputSchema } from './search-schemas';
import { PermissionReplySchema } from './permission-schemas';
import { ProgressEventSchema } from './progress-schemas';
import {
  DecideInputSchema,
  ReviewChangeSchema,
  ReviewDiffSchema,
  ReviewTargetSchema,
  RevertPreviewSchema,
  TimelineEntrySchema,
  UndoInputSchema,
} from './review-schemas';
import { McpToggleInputSchema, McpViewSchema, TrustSetInputSchema, TrustViewSchema } from './reach-schemas';
import {
  LoopAnswerSchema,
  LoopAnsweredSchema,
  QuestionAnswerSchema,
  QueueEditSchema,
  QueueSendSchema,
  QueuedItemSchema,
  TalkSetSchema,
  TalkViewSchema,
} from './talk-schemas';
import {
  FileContentSchema,
  FileReadInputSchema,
  FileSavedSchema,
  FileSaveInputSchema,
  FileTreeInputSchema,
  FileTreeSchema,
  AttachmentSchema,
} from './files-schemas';

const id = z.string().min(1).max(200);
const sessionRef = z.object({ sessionId: id });
const empty = z.object({});

/** An application-menu command for the window (the menu lives in main; the action in the renderer's store). */
export const AppCommandSchema = z.object({
  type: z.literal('app.command'),
  command: z.enum([
    'project.pick',
    'session.new',
    'view.settings',
    'view.projects',
    'view.palette',
    'history.undo',
    'history.redo',
    'chat.stop',
    'sample.replay',
  ]),
});
export type AppCommand = z.infer<typeof AppCommandSchema>['command'];

/** Calls: renderer → main. */
export const calls = {
  'app.info': { input: empty, output: AppInfoSchema },
  'projects.list': { input: empty, output: z.array(ProjectSchema) },
  'projects.open': { input: z.object({ root: z.string().min(1).max(4096) }), output: ProjectSchema },
  /** Electron only: the native open-folder dialog; `root: null` when cancelled. The web host answers `unavailable`. */
  'projects.pickFolder': { input: empty, output: z.object({ root: z.string().nullable() }) },
  /** Copies the sample project from resources/ to a fresh folder, opens it and creates a session ready to replay. */
  'projects.openSample': { input: empty, output: z.object({ project: ProjectSchema, session: SessionSchema }) },
  'sessions.list': { input: z.object({ projectId: id }), output: z.array(SessionSchema) },
  /**
   * Sessions of the project whose title or message text (the user's and the assistant's text, not tool outputs)
   * holds every word of `query`, case folded: title matches first, then newest first, each with up to three
   * matching messages and a snippet. The query is data, never SQL or FTS syntax (`%`, `_`, quotes, NEAR … match
   * themselves). `invalid_input` for an unknown project or a query over SEARCH_QUERY_MAX characters.
   */
  'sessions.search': { input: SessionSearchInputSchema, output: z.array(SessionSearchHitSchema) },
  /**
   * Every turn running now on this data folder — in this host, another window's host or the command line — with
   * when it started (ms since the epoch) and whether another process runs it. A window asks after a reload or a
   * reconnect; later changes arrive as `session.state` events.
   */
  'sessions.running': { input: empty, output: z.array(RunningTurnSchema) },
  'sessions.create': {
    input: z.object({ projectId: id, title: z.string().max(200).optional() }),
    output: SessionSchema,
  },
  'sessions.get': { input: sessionRef, output: SessionDetailSchema },
  'sessions.rename': { input: z.object({ sessionId: id, title: z.string().min(1).max(200) }), output: SessionSchema },
  'sessions.delete': { input: sessionRef, output: z.object({ deleted: z.literal(true) }) },
  /** The whole session as one JSON document (the session core's export format). */
  'sessions.export': { input: sessionRef, output: z.object({ fileName: z.string(), json: z.string() }) },
  /** Imports an export small enough for one call (≤ IMPORT_PART_MAX_CHARS); larger ones use the upload below. */
  'sessions.import': {
    input: z.object({ projectId: id, json: z.string().min(2).max(IMPORT_PART_MAX_CHARS) }),
    output: SessionSchema,
  },
  /**
   * An import upload, for exports up to SESSION_IMPORT_MAX_CHARS (src/shared/limits.ts): begin with the whole
   * length (a larger one is refused here, `too_large`, before any part is sent), send the text in order in parts
   * of at most IMPORT_PART_MAX_CHARS (`offset` = characters sent before it), then end: the import itself, as
   * `sessions.import` does it. Every piece fits one WebSocket frame, whatever the text holds.
   */
  'sessions.importBegin': {
    input: z.object({ projectId: id, length: z.number().int().min(2) }),
    output: z.object({ uploadId: id }),
  },
  'sessions.importPart': {
    input: z.object({
      uploadId: id,
      offset: z.number().int().min(0),
      text: z.string().min(1).max(IMPORT_PART_MAX_CHARS),
    }),
    output: z.object({ received: z.number().int() }),
  },
  'sessions.importEnd': { input: z.object({ uploadId: id }), output: SessionSchema },
  /**
   * What the model is told in the session: the baseline's sources (instruction files, their size, what the
   * per-file cap cut) and one request of the ledger (default the last) — the exact request, its tokens by
   * category, the model's window, the tokens in use (the context meter) and the change against the request before.
   */
  'context.get': {
    input: z.object({ sessionId: id, step: z.number().int().min(1).optional() }),
    output: ContextViewSchema,
  },
  /**
   * Compaction from the chat: `run` compacts the session's older history now (trigger 'manual') and answers the
   * stored `compaction` part; `busy` while a turn runs, `no_change` when there is nothing older to fold. `undo`
   * marks a compaction undone (or, `undone: false`, in force again): the next request is built as if it never ran.
   */
  'compaction.run': { input: sessionRef, output: PartSchema },
  'compaction.undo': {
    input: z.object({ sessionId: id, partId: id, undone: z.boolean() }),
    output: z.object({ undone: z.boolean() }),
  },
  /** Sends a user message; resolves once the turn has started (progress arrives as events) or failed to start. */
  /** `attachments`: project files (or line ranges of them) the user @-mentioned; their text goes with the message. */
  'chat.prompt': {
    input: z.object({
      sessionId: id,
      text: z.string().min(1).max(200_000),
      attachments: z.array(AttachmentSchema).max(20).optional(),
    }),
    output: z.object({ started: z.literal(true) }),
  },
  /**
   * Plays a recorded session (`sample`, or a corpus session folder) through the loop as the provider, asking
   * permissions like a live model would. `text` is the first turn's user message. `tour` (the first-run sample):
   * the recording's `ask` marks put their permission question too, once each, even where the rules allow.
   */
  'chat.replay': {
    input: z.object({
      sessionId: id,
      recording: z.string().min(1).max(4096),
      text: z.string().max(200_000).optional(),
      tour: z.boolean().optional(),
    }),
    output: z.object({ started: z.literal(true) }),
  },
  'chat.stop': { input: sessionRef, output: z.object({ stopped: z.boolean() }) },
  'permission.answer': {
    input: PermissionReplySchema.extend({ sessionId: id, askId: id }),
    output: z.object({ answered: z.literal(true) }),
  },
  /** Answers the question tool's open question (its running tool part); a reply that does not fit is `invalid_input`. */
  'question.answer': { input: QuestionAnswerSchema, output: z.object({ answered: z.literal(true) }) },
  /**
   * Answers a repetition stop (a `loop-stop` part): `continue` starts a new turn that tells the model the user let
   * it go on, `stop` dismisses. At most once: `not_found` when the session has no such stop (unknown, or
   * undone by a revert), `conflict` when it was answered or superseded, `busy` while a turn runs.
   */
  'loop.answer': { input: LoopAnswerSchema, output: LoopAnsweredSchema },
  /** The session's mode and model, and the modes and providers the chat's picker offers. */
  'talk.get': { input: sessionRef, output: TalkViewSchema },
  /** Chooses the mode and/or model of the session's next step (mid-turn: from the next step on). */
  'talk.set': { input: TalkSetSchema, output: TalkViewSchema },
  /**
   * The admission queue: a message is stored at once; it starts a turn when the session is idle (`started`), else
   * waits for the running turn to end, or — `steer` — joins it at the next step boundary.
   */
  'queue.send': { input: QueueSendSchema, output: QueuedItemSchema.extend({ started: z.boolean() }) },
  /** Edit or remove a message while it is still queued; once promoted it is `conflict`. */
  'queue.edit': { input: QueueEditSchema, output: QueuedItemSchema },
  'queue.remove': { input: z.object({ sessionId: id, id }), output: z.object({ removed: z.literal(true) }) },
  /** Runs what is queued (after a restart, a stop or a failed turn); `resumed` false when nothing is or it runs. */
  'queue.resume': { input: sessionRef, output: z.object({ resumed: z.boolean() }) },
  /**
   * History calls answer the session after the move and `kept`: files the core left as the user had them (changed
   * after the agent's step or after the revert wrote them) — never overwritten without `force`.
   * Undo: `text` is the user message to put back in the input.
   */
  'history.undo': {
    input: sessionRef,
    output: z.object({ text: z.string().nullable(), session: SessionSchema, kept: z.array(KeptFileSchema) }),
  },
  'history.redo': {
    input: sessionRef,
    output: z.object({ redone: z.boolean(), session: SessionSchema, kept: z.array(KeptFileSchema) }),
  },
  'history.revert': {
    input: z.object({ sessionId: id, messageId: id, partId: id.optional(), force: z.boolean().optional() }),
    output: z.object({ session: SessionSchema, kept: z.array(KeptFileSchema) }),
  },
  'history.unrevert': {
    input: sessionRef,
    output: z.object({ session: SessionSchema, kept: z.array(KeptFileSchema) }),
  },
  /** Review: the timeline of steps and decisions, a point's diff with hunk states, keep / reject, undo. */
  'review.timeline': { input: sessionRef, output: z.array(TimelineEntrySchema) },
  'review.diff': { input: z.object({ sessionId: id, target: ReviewTargetSchema }), output: ReviewDiffSchema },
  /** A decision and its undo answer what they changed (ReviewChange): the click's one round trip. */
  'review.decide': { input: DecideInputSchema, output: ReviewChangeSchema },
  'review.undo': { input: UndoInputSchema, output: ReviewChangeSchema },
  /** What reverting to before a message would change, and the conflicts; writes nothing. */
  'review.revertPreview': { input: z.object({ sessionId: id, messageId: id }), output: RevertPreviewSchema },
  /** The file view: the project's files (ignore rules applied), a file for the editor, saving the editor's text. */
  'files.tree': { input: FileTreeInputSchema, output: FileTreeSchema },
  'files.read': { input: FileReadInputSchema, output: FileContentSchema },
  /** Saved through the agent's file layer (lock, atomic write, encoding kept); `stale` when the disk moved on. */
  'files.save': { input: FileSaveInputSchema, output: FileSavedSchema },
  /** settings.json as it is on disk now (settings-schemas.ts SettingsView); never a key, only where each comes from. */
  'settings.get': { input: empty, output: SettingsViewSchema },
  /**
   * Saves the screen's whole document over settings.json (comments and key order kept) and the typed keys (OS
   * secret store / memory). Errors: `invalid_input` (data.issues name the fields), `stale` (the file changed since
   * `base`; data.view is the file's view now), `conflict` (the file on disk cannot be read; it is not overwritten).
   */
  'settings.save': { input: SettingsSaveSchema, output: SettingsViewSchema },
  /** "Reset to defaults": keeps the file as settings.json.bak-<time> (named in `backup`), back to the first run. */
  'settings.reset': { input: empty, output: SettingsViewSchema },
  /** Tries a provider as the form describes it with a tiny request; a failure is `provider_error` with the reason. */
  'settings.test': {
    input: SettingsTestSchema,
    output: z.object({ model: z.string(), latencyMs: z.number() }),
  },
  /** The context window of every model of the form's providers, as typed (before a save), and where it comes from. */
  'settings.windows': { input: SettingsWindowsSchema, output: z.array(ModelWindowSchema) },
  /** Trusted folders (src/shared/reach-schemas.ts): which project folders may run their own executables. */
  'trust.list': { input: empty, output: TrustViewSchema },
  'trust.set': { input: TrustSetInputSchema, output: TrustViewSchema },
  /** A project's MCP servers (starting them when not started): state, tools, token cost. */
  'mcp.status': { input: z.object({ projectId: id }), output: McpViewSchema },
  /** Approve the project's MCP file as it is now (its folder must be trusted); its servers start. */
  'mcp.approve': { input: z.object({ projectId: id }), output: McpViewSchema },
  'mcp.toggle': { input: McpToggleInputSchema, output: McpViewSchema },
  /** Operations running now, each as its latest `progress` event (a window loads it at start and on reconnect). */
  'progress.list': { input: empty, output: z.array(ProgressEventSchema) },
} as const satisfies Record<CallName, { input: z.ZodType; output: z.ZodType }>;

/** The schema of one variant of the core's event union, typed as that variant. */
function variant<T extends CoreEventType>(type: T): z.ZodType<EventOf<T>> {
  const found = coreEventSchema.options.find((o) => o.shape.type.value === type);
  if (!found) throw new Error(`events.ts has no event ${type}`);
  return found as unknown as z.ZodType<EventOf<T>>;
}

/** Events: main → renderer. The payload is the core's event itself (src/shared/events.ts), `type` included. */
export const events = {
  'text.delta': { payload: variant('text.delta') },
  'reasoning.delta': { payload: variant('reasoning.delta') },
  'part.updated': { payload: variant('part.updated') },
  'message.added': { payload: variant('message.added') },
  'message.removed': { payload: variant('message.removed') },
  'part.removed': { payload: variant('part.removed') },
  'permission.asked': { payload: variant('permission.asked') },
  'permission.answered': { payload: variant('permission.answered') },
  'question.asked': { payload: variant('question.asked') },
  'queue.updated': { payload: variant('queue.updated') },
  'snapshot.added': { payload: variant('snapshot.added') },
  'session.state': { payload: variant('session.state') },
  'session.updated': { payload: variant('session.updated') },
  'session.deleted': { payload: variant('session.deleted') },
  progress: { payload: variant('progress') },
  /** The application menu asks the window to run a palette command (e.g. `view.settings`). */
  'app.command': { payload: AppCommandSchema },
  /** settings.json changed on disk (by hand, another window, a save): the Settings screen shows the new values. */
  'settings.changed': { payload: SettingsChangedSchema },
} as const satisfies Record<EventName, { payload: z.ZodType }>;

// Compile-time check that the name lists and the entries agree both ways.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
// Every core event has an entry (a new core event type fails to compile here until the contract carries it).
const _names: [
  Exact<keyof typeof calls, CallName>,
  Exact<keyof typeof events, EventName>,
  Exact<CoreEventType, Exclude<EventName, 'app.command' | 'settings.changed'>>,
] = [true, true, true];
void _names;

export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>;
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>;
export type CallResult<N extends CallName> = Result<CallOutput<N>>;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]['payload']>;

/** A pushed event as it travels: the core's event, whose `type` is the event name. */
export type AnyEvent = EventPayload<EventName>;

/**
 * What the preload exposes as `window.landfall` and what the web transport mimics: one function per call
 * (resolving to a Result, never rejecting for an expected failure) and one subscription per event.
 */
export interface LandfallApi {
  calls: { [N in CallName]: (input: CallInput<N>) => Promise<CallResult<N>> };
  events: { [E in EventName]: (listener: (payload: EventPayload<E>) => void) => () => void };
}

export { CALL_NAMES, EVENT_NAMES, callChannel, EVENT_CHANNEL } from './contract-names';
export type { CallName, EventName } from './contract-names';
export * from './contract-schemas';
export * from './history-schemas';
export * from './model';
export * from './permission-schemas';
export * from './talk-schemas';
export * from './settings-schemas';
