/**
 * The outcome of an applied patch, as data and as the text the model reads: one `A path` / `M path` / `D path`
 * line per file (a move is `M destination` with its source), the commit diff of each file, and which files
 * landed. A failure never comes with a partial success report: it is all or nothing (transaction.ts).
 */
import type { FileChange } from '../../../shared/model';
import type { ChangeKind } from '../../engine/patch/types';

/** One file of an applied patch. `path` is root-relative as the patch named it; for a move, `movePath` is the destination. */
export interface PatchFileResult {
  kind: ChangeKind;
  path: string;
  movePath?: string;
  /** Commit diff: the real text before and after (for a move, source before → destination after). */
  change: FileChange;
}

export interface PatchResult {
  files: PatchFileResult[];
  /** Root-relative paths whose bytes changed on disk (created, rewritten, or removed). */
  landed: string[];
  /** The `A`/`M`/`D` lines. */
  summary: string;
}

/**
 * One summary line for a file: `A`, `M`, `D`, a move as `M destination (moved from source)`; an update whose
 * hunks leave the bytes as they were is `= path (unchanged …)`, so a patch that changes nothing never reads as
 * if it landed (the conformance README's 063 row: opencode "reports success" on such a patch).
 */
export function summaryLine(file: PatchFileResult, changed = true): string {
  switch (file.kind) {
    case 'add':
      return `A ${file.path}`;
    case 'delete':
      return `D ${file.path}`;
    case 'move':
      return `M ${file.movePath ?? file.path} (moved from ${file.path})`;
    default:
      return changed ? `M ${file.path}` : `= ${file.path} (unchanged: the patch leaves its bytes as they were)`;
  }
}

/** Assemble the result of a landed patch; `landed` are the root-relative paths whose bytes changed. */
export function patchResult(files: PatchFileResult[], landed: string[]): PatchResult {
  const lines = files.map((f) => summaryLine(f, landed.includes(f.change.file)));
  return { files, landed, summary: `Success. Updated the following files:\n${lines.join('\n')}` };
}
