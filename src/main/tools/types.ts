/**
 * The shape every tool shares (read, edit, write, apply_patch, list, glob, grep, bash): a zod input schema, and
 * an `execute(input, ctx)` that never throws for an expected failure — it answers a `ToolOutcome`, whose error
 * text is written for the model to act on (DESIGN §2, §10).
 *
 * Context is explicit (DESIGN §10: no ambient globals): the project root, the session, the observed-version
 * store, and optional hooks for permission asks and language-server diagnostics.
 */
import type { z } from 'zod';
import type { LandfallError } from '../../shared/errors';
import type { Diagnostic, FileChange } from '../../shared/model';

/** What a session last saw of a file: sizes in bytes, mtime in ms, sha256 hex of the raw bytes. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** Read-before-edit memory, keyed by (session id, real absolute path). Implemented in src/main/fs/observed.ts. */
export interface ObservedStore {
  record(sessionId: string, realPath: string, stamp: FileStamp): void;
  get(sessionId: string, realPath: string): FileStamp | undefined;
  forget(sessionId: string, realPath?: string): void;
}

/**
 * A permission question (DESIGN §6). `patterns` are root-relative real paths or a bash command. `git_dir` is a
 * write into a repository's own `.git` folder (the project's, a nested repository's, a submodule's `.git` file):
 * asked every time, never covered by an allow rule or an "always" answer.
 */
export interface PermissionRequest {
  tool: string;
  permission: 'read' | 'edit' | 'bash' | 'external_directory' | 'git_dir';
  patterns: string[];
  title: string;
  /** Preview diff of what the call would write (edit, write, apply_patch). */
  preview?: FileChange[];
}

export type PermissionAnswer = { allow: true } | { allow: false; reason?: string };

/**
 * Which files may be shown to the model (read, grep, glob, list, apply_patch context, edit errors). `withheld`
 * takes a root-relative path (real, or the name a tool was given) and answers why its bytes (or, for listings,
 * its name) must not reach the model, or undefined when it may be shown: a read rule denies it, or — with
 * `bulk` (grep, glob, list: files nobody was asked about one by one) — a read rule asks for it and no "always"
 * answer covers it. Absent from the context means "everything may be shown" (the command-line tool commands).
 */
export interface RevealGuard {
  withheld(rel: string, bulk?: boolean): string | undefined;
}

/** Asks the user (or the rules) whether a call may proceed. Absent from the context means "allow". */
export type PermissionAsk = (request: PermissionRequest) => Promise<PermissionAnswer>;

/** Outcome of asking the language servers about files after a write (src/main/lsp). */
export interface DiagnosticsReport {
  /** Text appended to the tool output (errors only; says when a server timed out or is unavailable). */
  text: string;
  /** All diagnostics (any severity) of the changed files, keyed by root-relative path, for the UI. */
  diagnostics: Record<string, Diagnostic[]>;
}

/** The language-server side of a tool call. Absent from the context means "no diagnostics". */
export interface DiagnosticsHook {
  /** A file was read: warm its server up. Never waits. */
  touch(absPath: string): void;
  /** Files were written (absolute paths): sync them and wait for fresh diagnostics. */
  afterWrite(absPaths: string[], options: AfterWriteOptions): Promise<DiagnosticsReport>;
}

/**
 * Options of DiagnosticsHook.afterWrite. `onWaiting` is called once the files are synced, with the ids of the
 * servers now being waited for ("typescript"); `onLate` once per server whose diagnostics came after the wait
 * timed out (at most a minute later), with a report of just those files — the call itself never waits for them.
 */
export interface AfterWriteOptions {
  reportOtherFiles: boolean;
  signal?: AbortSignal;
  onWaiting?: (servers: string[]) => void;
  onLate?: (report: DiagnosticsReport) => void;
}

/**
 * What a running tool reports before it returns (the tool card shows it): its bytes are on disk and it waits for
 * the named language servers' diagnostics, or diagnostics that came after the tool had finished.
 */
export type ToolProgress =
  { phase: 'diagnostics'; servers: string[] } | { phase: 'late-diagnostics'; report: DiagnosticsReport };

export interface ToolContext {
  /** Absolute, real (symlink-resolved) path of the project root. */
  root: string;
  sessionId: string;
  observed: ObservedStore;
  ask?: PermissionAsk;
  /** Files the model may not see (read rules, by real path); see RevealGuard. */
  reveal?: RevealGuard;
  diagnostics?: DiagnosticsHook;
  /** Progress of the running call for the UI (ToolProgress); absent means nobody listens. */
  progress?: (p: ToolProgress) => void;
  signal?: AbortSignal;
  /** Folder for tool scratch output (e.g. bash's full output); inside the app's data folder. */
  scratchDir?: string;
  /**
   * Folder for the journals of work-tree writes (src/main/fs/journal.ts), inside the app's data folder; recovered
   * when the service opens. Absent: a folder in the OS temp dir (fs/journal.ts `defaultJournalDir`).
   */
  journalDir?: string;
}

export interface ToolSuccess {
  ok: true;
  /** Short label for the UI ("edit src/a.ts"). */
  title: string;
  /** Text the model reads. */
  output: string;
  /** Structured detail for the UI and the session store: commit diff (FileChange[]), rung, diagnostics… */
  metadata: Record<string, unknown>;
}

export interface ToolFailure {
  ok: false;
  error: LandfallError;
  /** Text the model reads: message plus hint. */
  output: string;
}

export type ToolOutcome = ToolSuccess | ToolFailure;

/** A tool: name, description for the model, zod input schema, and the executor. */
export interface ToolDefinition<I = unknown> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  execute(input: I, ctx: ToolContext): Promise<ToolOutcome>;
}

/** Turn a LandfallError into the failure the model reads. */
export function toolFailure(error: LandfallError): ToolFailure {
  return { ok: false, error, output: `Error (${error.code}): ${error.message}\n${error.hint}` };
}
