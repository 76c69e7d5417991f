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

/** Tokens of one model request as the provider reported them. */
export interface StepUsage {
  input: number;
  output: number;
}

/** A step's failure as stored with it: `message` in plain words first, `raw` the provider's own text. */
export interface StepError {
  code: string;
  message: string;
  hint: string;
  raw?: string;
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
  | (PartBase & {
      type: 'step-finish';
      snapshot: string;
      reason?: string;
      /** Tokens the provider reported for this step's request (absent when it reported none). */
      usage?: StepUsage;
      /** Why the step failed (finish reason `error`): plain words, next step, the provider's raw text. */
      error?: StepError;
    })
  | (PartBase & { type: 'patch'; hash: string; files: string[] });

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
