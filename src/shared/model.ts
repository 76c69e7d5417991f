/**
 * The data model shared by main and the renderer (DESIGN §5, §9): projects, sessions, messages, parts, file
 * changes, diagnostics, diffs. Each shape is a zod schema, and its type is inferred from it — so the schema the
 * contract checks at the boundary and the type the code compiles against are one definition, never two that can
 * drift apart. Plain serialisable shapes only: they cross the process boundary (and the snapshot worker's thread
 * boundary) as JSON.
 */
import { z } from 'zod';

/** One diagnostic from a language server. `line`/`col` are 1-based; `severity` follows LSP (1 error … 4 hint). */
export const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number(),
  col: z.number(),
  endLine: z.number().optional(),
  endCol: z.number().optional(),
  severity: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  message: z.string(),
  source: z.string().optional(),
  code: z.union([z.string(), z.number()]).optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/**
 * The commit diff of one file change: computed from the real bytes before and after a write (DESIGN §3).
 * `file` is root-relative with `/` separators. `patch` is a unified diff (dropped, as `undefined`, when over
 * 500,000 characters; the counts are kept).
 */
export const FileChangeSchema = z.object({
  file: z.string(),
  patch: z.string().optional(),
  additions: z.number(),
  deletions: z.number(),
});
export type FileChange = z.infer<typeof FileChangeSchema>;

/** A structured per-file diff between two trees (the snapshot store's diffFull, which review splits into hunks). */
export const FileDiffSchema = z.object({
  path: z.string(),
  status: z.enum(['added', 'deleted', 'modified', 'renamed']),
  /** For renames: the path in the older tree. */
  oldPath: z.string().optional(),
  /** Text before / after; absent when binary or over the size limit. */
  before: z.string().optional(),
  after: z.string().optional(),
  binary: z.boolean().optional(),
  tooLarge: z.boolean().optional(),
  additions: z.number(),
  deletions: z.number(),
});
export type FileDiff = z.infer<typeof FileDiffSchema>;

export const ToolStateSchema = z.enum(['pending', 'running', 'completed', 'error']);
export type ToolState = z.infer<typeof ToolStateSchema>;

/** What every part carries: ids, and `time` in milliseconds since the epoch. */
const partBase = { id: z.string(), sessionId: z.string(), messageId: z.string(), time: z.number() };

/** Tokens of one model request as the provider reported them. */
export const StepUsageSchema = z.object({ input: z.number(), output: z.number() });
export type StepUsage = z.infer<typeof StepUsageSchema>;

/** A step's failure as stored with it: `message` in plain words first, `raw` the provider's own text. */
export const StepErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string(),
  raw: z.string().optional(),
});
export type StepError = z.infer<typeof StepErrorSchema>;

/**
 * A compaction (DESIGN §11): the history before `keptFrom` goes to the model as `summary`; nothing is deleted.
 * `keptFrom` is the id of the first history unit sent verbatim (a user message's id, or an assistant step's
 * step-start part id); `folded` the message ids whose content the summary stands for; tokens are estimates of the
 * request before and after; `trigger`: 'auto' (the window was near), 'overflow' (the provider said the context
 * was too long), 'manual'. An `undone` compaction is ignored when the history is built.
 */
const compactionFields = {
  summary: z.string(),
  keptFrom: z.string(),
  folded: z.array(z.string()),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  trigger: z.enum(['auto', 'overflow', 'manual']),
  undone: z.boolean().optional(),
};
export type CompactionFields = z.infer<z.ZodObject<typeof compactionFields>>;

/** What the user decided after a turn was stopped for repeating one call (see the `loop-stop` part). */
export const LoopDecisionSchema = z.enum(['continue', 'stop', 'superseded']);
export type LoopDecision = z.infer<typeof LoopDecisionSchema>;

/**
 * A part of a message (DESIGN §5): text and reasoning as streamed; a tool call with its state, output or error
 * and metadata (commit diff, rung, diagnostics…); the step boundaries with their tree hashes; and a patch part
 * (`hash`: the tree before the step, `files`: what the step's tools changed); a compaction (see above); a turn
 * stopped for repeating one call, waiting for the user's decision.
 */
export const PartSchema = z.discriminatedUnion('type', [
  z.object({ ...partBase, type: z.literal('text'), text: z.string() }),
  z.object({ ...partBase, type: z.literal('reasoning'), text: z.string() }),
  z.object({
    ...partBase,
    type: z.literal('tool'),
    tool: z.string(),
    callId: z.string(),
    state: ToolStateSchema,
    input: z.unknown(),
    output: z.string().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  /** `model` answered the step (`provider/model`), in `mode` (build, plan, or a mode from settings). */
  z.object({
    ...partBase,
    type: z.literal('step-start'),
    snapshot: z.string(),
    model: z.string().optional(),
    mode: z.string().optional(),
  }),
  z.object({
    ...partBase,
    type: z.literal('step-finish'),
    snapshot: z.string(),
    reason: z.string().optional(),
    /** Tokens the provider reported for this step's request (absent when it reported none). */
    usage: StepUsageSchema.optional(),
    /** Why the step failed (finish reason `error`): plain words, next step, the provider's raw text. */
    error: StepErrorSchema.optional(),
  }),
  z.object({ ...partBase, type: z.literal('patch'), hash: z.string(), files: z.array(z.string()) }),
  z.object({ ...partBase, type: z.literal('compaction'), ...compactionFields }),
  /**
   * A turn the repetition rule stopped (src/main/agent/loop-decision.ts): the call repeated (`tool`, `input`) and
   * how many times in a row (`repeats`); `decision` is absent while the user is asked whether to go on, then
   * 'continue' (a new turn went on), 'stop' (dismissed) or 'superseded' (the user sent another message instead).
   */
  z.object({
    ...partBase,
    type: z.literal('loop-stop'),
    tool: z.string(),
    input: z.unknown(),
    repeats: z.number(),
    decision: LoopDecisionSchema.optional(),
  }),
]);
export type Part = z.infer<typeof PartSchema>;
export type PartType = Part['type'];

export const MessageSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: z.enum(['user', 'assistant']),
  time: z.number(),
  /** The mode the message was sent in (user) or its first step ran in (assistant); agent/modes.ts. */
  mode: z.string().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

/** A message with its parts, in order — what the chat renders and what the loop rebuilds the conversation from. */
export const MessageWithPartsSchema = MessageSchema.extend({ parts: z.array(PartSchema) });
export type MessageWithParts = z.infer<typeof MessageWithPartsSchema>;

/** The soft revert boundary of a session (DESIGN §5). */
export const RevertStateSchema = z.object({
  messageId: z.string(),
  partId: z.string().optional(),
  /** Tree hash of the project before the revert (what unrevert restores). */
  snapshot: z.string(),
  /** Unified diff of what the revert undid. */
  diff: z.string(),
});
export type RevertState = z.infer<typeof RevertStateSchema>;

export const SessionSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  created: z.number(),
  updated: z.number(),
  revert: RevertStateSchema.optional(),
});
export type Session = z.infer<typeof SessionSchema>;

/** A project folder Landfall has opened: `root` is its real (symlink-resolved) absolute path. */
export const ProjectSchema = z.object({
  id: z.string().min(1).max(200),
  root: z.string(),
  name: z.string(),
  lastOpened: z.number(),
});
export type Project = z.infer<typeof ProjectSchema>;
