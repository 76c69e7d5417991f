/**
 * The data model shared by main and the renderer (DESIGN §5, §9): sessions, messages, parts, file diffs, hunks,
 * diagnostics. Plain serialisable shapes only — they cross the process boundary as JSON.
 */

/** One diagnostic from a language server. `line`/`col` are 1-based; `severity` follows LSP (1 error … 4 hint). */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  endLine?: number;
  endCol?: number;
  severity: 1 | 2 | 3 | 4;
  message: string;
  source?: string;
  code?: string | number;
}

/**
 * The commit diff of one file change: computed from the real bytes before and after a write (DESIGN §3).
 * `file` is root-relative with `/` separators. `patch` is a unified diff (dropped, as `undefined`, when over
 * 500,000 characters; the counts are kept).
 */
export interface FileChange {
  file: string;
  patch?: string;
  additions: number;
  deletions: number;
}

/** One hunk of a file diff. Line numbers are 1-based; `lines` are prefixed with ' ', '-' or '+'. */
export interface Hunk {
  id: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A structured per-file diff between two trees (snapshot store's diffFull, review). */
export interface FileDiff {
  path: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  /** For renames: the path in the older tree. */
  oldPath?: string;
  /** Text before / after; absent when binary or over the size limit. */
  before?: string;
  after?: string;
  binary?: boolean;
  tooLarge?: boolean;
  additions: number;
  deletions: number;
}

export type ToolState = 'pending' | 'running' | 'completed' | 'error';

export interface PartBase {
  id: string;
  sessionId: string;
  messageId: string;
  /** Milliseconds since the epoch. */
  time: number;
}

export type Part =
  | (PartBase & { type: 'text'; text: string })
  | (PartBase & { type: 'reasoning'; text: string })
  | (PartBase & {
      type: 'tool';
      tool: string;
      callId: string;
      state: ToolState;
      input: unknown;
      output?: string;
      error?: { code: string; message: string };
      metadata?: Record<string, unknown>;
    })
  | (PartBase & { type: 'step-start'; snapshot: string })
  | (PartBase & { type: 'step-finish'; snapshot: string; reason?: string })
  | (PartBase & { type: 'patch'; hash: string; files: string[] })
  | (PartBase & CompactionFields & { type: 'compaction' });

/**
 * A compaction (DESIGN §11): the history before `keptFrom` goes to the model as `summary`; nothing is deleted.
 * `keptFrom` is the id of the first history unit sent verbatim (a user message's id, or an assistant step's
 * step-start part id); `folded` the message ids whose content the summary stands for; tokens are estimates of
 * the request before and after. An `undone` compaction is ignored when the history is built.
 */
export interface CompactionFields {
  summary: string;
  keptFrom: string;
  folded: string[];
  tokensBefore: number;
  tokensAfter: number;
  /** 'auto' (the window was near), 'overflow' (the provider said the context was too long), 'manual' (/compact). */
  trigger: 'auto' | 'overflow' | 'manual';
  undone?: boolean;
}

export type PartType = Part['type'];

export interface Message {
  id: string;
  sessionId: string;
  role: 'user' | 'assistant';
  time: number;
}

/** The soft revert boundary of a session (DESIGN §5). */
export interface RevertState {
  messageId: string;
  partId?: string;
  /** Tree hash of the project before the revert (what unrevert restores). */
  snapshot: string;
  /** Unified diff of what the revert undid. */
  diff: string;
}

export interface Session {
  id: string;
  projectId: string;
  title: string;
  created: number;
  updated: number;
  revert?: RevertState;
}

export interface Project {
  id: string;
  root: string;
  name: string;
  lastOpened: number;
}
