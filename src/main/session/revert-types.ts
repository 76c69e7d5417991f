/**
 * What the session core's history moves (revert, unrevert, undo, redo; revert.ts) take and answer. The per-file
 * conflict shape crosses to the renderer, so it is a schema in src/shared/history-schemas.ts; the rest is the
 * session layer's own and reaches the renderer only through the contract's history calls (kept files, the
 * session), which the host builds from it.
 */
import type { RevertConflict } from '../../shared/history-schemas';
import type { Session } from '../../shared/model';

export type { RevertConflict } from '../../shared/history-schemas';

export interface RevertOptions {
  /** Overwrite files the user changed after the agent's step. */
  force?: boolean;
  /** Compute what would happen, change nothing. */
  preview?: boolean;
}

/** Outcome of revert/undo/redo: per-file lists (root-relative paths); `applied` false when conflicts stopped it (or preview). */
export interface RevertResult {
  applied: boolean;
  restored: string[];
  deleted: string[];
  skipped: string[];
  conflicts: RevertConflict[];
  /** Unified diff of what the move changed (the snapshot store's diff). */
  diff: string;
  session: Session;
  /**
   * What moving back could NOT put back: files the agent wrote inside a repository's own `.git` folder (no
   * snapshot holds them; src/main/agent/permission/git-dir-history.ts), or `.git (bash: …)` for a command that
   * wrote there. Set by the service's revert and undo (also with preview); empty when there are none.
   */
  unrestorable?: string[];
}

export interface UndoResult extends RevertResult {
  /** The text of the user message undone (to put back in the prompt box). */
  text: string;
}
