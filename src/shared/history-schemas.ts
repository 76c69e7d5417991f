/**
 * History shapes that cross the renderer ⇄ main boundary (DESIGN §5: revert, unrevert, undo, redo): the files a
 * move found changed by someone else, and the files it left as the user had them. Zod schemas with inferred
 * types; the session core (src/main/session/revert.ts) produces them, the contract's history calls answer them.
 */
import { z } from 'zod';

/**
 * A file someone else changed since Landfall last wrote it: `changed_after_step` — its bytes differ from the end
 * of the agent's last step that wrote it; `changed_after_revert` — from what the revert in place wrote;
 * `not_captured` — the file exists but no snapshot captured it (ignored, too large), so it is never touched.
 */
export const RevertConflictSchema = z.object({
  path: z.string(),
  reason: z.enum(['changed_after_step', 'changed_after_revert', 'not_captured']),
});
export type RevertConflict = z.infer<typeof RevertConflictSchema>;

/**
 * A file a history move left as the user had it, and why: a conflict's reason (above); `not_written` — the
 * snapshot store could not write it; `git_dir` — the agent wrote it inside a repository's own .git folder, which
 * no snapshot holds, so it is not put back.
 */
export const KeptFileSchema = z.object({
  path: z.string(),
  reason: z.enum([...RevertConflictSchema.shape.reason.options, 'not_written', 'git_dir']),
});
export type KeptFile = z.infer<typeof KeptFileSchema>;
