/**
 * Progress of a long operation (issue 18 §2): a first track or any full walk of the work tree, a restore, a
 * history move (revert, unrevert, undo, redo, and a revert's preview), snapshot clean-up (gc) and a session
 * import. One operation is a run of `progress` events with one `id`: `start`, then `running` (throttled: at most
 * every PROGRESS_THROTTLE_MS, never one per file; a phase change is told at once), then exactly one `end` or
 * `failed` — also when the operation threw or its worker thread died — so no bar is left hanging.
 *
 * Counts say what is known: `count.total` / `bytes.total` are present only when the operation knows them (a walk
 * discovering files has no total: never a made-up percentage). `elapsedMs` is the operation's own running time as
 * main (or the snapshot worker) measured it, so a window decides "long enough to show" (PROGRESS_SHOW_AFTER_MS)
 * from the event itself, with no timer of its own.
 */
import { z } from 'zod';

/** How often (ms) an operation reports at most while it runs (start, end and phase changes are told at once). */
export const PROGRESS_THROTTLE_MS = 100;
/** An operation is shown (progress bar, terminal line) once it has run this long (ms): no flicker for short ones. */
export const PROGRESS_SHOW_AFTER_MS = 300;

/**
 * What runs. `first-track`: a track with no stat cache yet (every file is read and hashed); `track`: any other
 * full walk of the work tree (a walk the file watcher guides is not reported); `restore`: the work tree made equal
 * to a snapshot; `revert` … `redo`, `preview`: the history moves of a session (src/main/session/revert.ts);
 * `gc`: snapshot clean-up; `import`: a session export uploaded and stored.
 */
export const ProgressOperationSchema = z.enum([
  'first-track',
  'track',
  'restore',
  'revert',
  'unrevert',
  'undo',
  'redo',
  'preview',
  'gc',
  'import',
]);
export type ProgressOperation = z.infer<typeof ProgressOperationSchema>;

/**
 * The part of the operation under way. `walk`: reading the work tree (files looked at, bytes read and hashed; no
 * total); `plan`: deciding per file (revert: disk against snapshots); `prepare`: checking each target and backing
 * up what a write replaces; `write`: writing and removing files; `mark` / `prune` / `repack`: gc finding live
 * objects, removing dead loose ones, rewriting packs; `upload` / `read` / `store`: an import receiving its parts,
 * parsing and checking the export, storing its messages.
 */
export const ProgressPhaseSchema = z.enum([
  'walk',
  'plan',
  'prepare',
  'write',
  'mark',
  'prune',
  'repack',
  'upload',
  'read',
  'store',
]);
export type ProgressPhase = z.infer<typeof ProgressPhaseSchema>;

const amount = z.number().int().nonnegative();

/** Items done in the current phase, of `total` when known, in `unit`. */
export const ProgressCountSchema = z.object({
  done: amount,
  total: amount.optional(),
  unit: z.enum(['files', 'objects', 'messages', 'characters']),
});
export type ProgressCount = z.infer<typeof ProgressCountSchema>;

/** Bytes read or written in the current phase, of `total` when known. */
export const ProgressBytesSchema = z.object({ done: amount, total: amount.optional() });
export type ProgressBytes = z.infer<typeof ProgressBytesSchema>;

/** One report of one operation (see the module docstring). */
export const ProgressEventSchema = z.object({
  type: z.literal('progress'),
  /** The operation's id: the same on every report of one run, never reused by the process that made it. */
  id: z.string().min(1),
  operation: ProgressOperationSchema,
  /** The project whose work tree or sessions it concerns (a window shows the open project's operations). */
  projectId: z.string().optional(),
  /** The session, for a history move. */
  sessionId: z.string().optional(),
  state: z.enum(['start', 'running', 'end', 'failed']),
  phase: ProgressPhaseSchema.optional(),
  count: ProgressCountSchema.optional(),
  bytes: ProgressBytesSchema.optional(),
  /** Milliseconds the operation has run, by the clock of the process running it. */
  elapsedMs: z.number().nonnegative(),
  /** Why it failed (`failed` only): an error code of src/shared/errors.ts or `internal`, and plain words. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type ProgressEvent = z.infer<typeof ProgressEventSchema>;
