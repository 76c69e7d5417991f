/**
 * The shape every tool shares (read, edit, write, apply_patch, list, glob, grep, bash): a zod input schema, and
 * an `execute(input, ctx)` that never throws for an expected failure — it answers a `ToolOutcome`, whose error
 * text is written for the model to act on (DESIGN §2, §10).
 *
 * Context is explicit (DESIGN §10: no ambient globals): the project root, the session, the observed-version
 * store (src/main/fs/observed.ts), and optional hooks for permission asks (the shapes below, which the agent's
 * gate implements) and language-server diagnostics (src/main/lsp/hook.ts). The tools own the permission
 * request's shape because they are the ones asking; the layers above only answer it.
 */
import type { z } from 'zod';
import type { LandfallError } from '../../shared/errors';
import type { FileChange } from '../../shared/model';
import type { PermissionKind } from '../../shared/permission-schemas';
import type { ObservedStore } from '../fs/observed';
import type { DiagnosticsHook, DiagnosticsReport } from '../lsp/hook';
import type { QuestionPort } from './question-types';
import type { TodoItem } from '../../shared/todo';

/**
 * A permission question (DESIGN §6). `patterns` are root-relative real paths or a bash command. `git_dir` is a
 * write into a repository's own `.git` folder (the project's, a nested repository's, a submodule's `.git` file):
 * asked every time, never covered by an allow rule or an "always" answer.
 */
export interface PermissionRequest {
  tool: string;
  permission: PermissionKind;
  patterns: string[];
  title: string;
  /** Preview diff of what the call would write (edit, write, apply_patch). */
  preview?: FileChange[];
  /** Ask the user even where the rules allow (a read-only mode, agent/modes-bash.ts); the reason is shown. */
  askAnyway?: string;
}

/**
 * A permission answer. `gitDir`: the user said yes to a `git_dir` question — one that said the call reaches into
 * the repository's git folder or its hooks (tools/git-dir.ts) — so the call may change them (tools/git-sweep.ts
 * leaves its changes alone).
 */
export type PermissionAnswer = { allow: true; gitDir?: boolean } | { allow: false; reason?: string };

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

/**
 * Asks the user (or the rules) whether a call may proceed; the agent's permission gate is the one implementation
 * (src/main/agent/permission/gate.ts). Absent from the context means "allow".
 */
export type AskPermission = (request: PermissionRequest) => Promise<PermissionAnswer>;

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
  ask?: AskPermission;
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
   * when the service opens. Absent: `journal/` of the default data folder (fs/journal.ts `defaultJournalDir`).
   */
  journalDir?: string;
  /** Asks the user a question and waits (the question tool); absent: nobody can answer (command line tools). */
  question?: QuestionPort;
  /** The session's todo list in force (src/shared/todo.ts); absent: the session keeps none. */
  todos?: () => TodoItem[];
  /** The stored part of the call being run (set by the tool runner). */
  partId?: string;
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
