/**
 * Shapes AgentService (service.ts) takes and returns. Plain JSON so the contract (src/shared) can mirror them.
 */
import type { Message, Part, Project, Session } from '../../shared/model';
import type { LandfallError } from '../../shared/errors';
import type { PermissionRule } from './permission';
import type { RetryPolicy } from './retry';
import type { DiagnosticsHook, ToolDefinition } from '../tools/types';
import type { LspSettings } from '../lsp/servers';
import type { KeyLookup } from './providers/keys';

/** Where the service keeps its state. `dataDir` holds landfall.db, snapshots/, settings.json, scratch/. */
export interface ServiceOptions {
  dataDir: string;
  /** Defaults to `<dataDir>/settings.json`. */
  settingsPath?: string;
  /**
   * Run each project's snapshot store in a worker thread (DESIGN §1, issue 4: a first track can take seconds and
   * hundreds of MB, and must not block the process that answers the window). `true` finds the worker script
   * beside the store module; a bundled app passes the built script's URL. Default: in-thread (tests, CLI).
   */
  snapshotWorker?: boolean | { workerUrl: URL };
}

/** A message with its parts, in order. */
export type MessageWithParts = Message & { parts: Part[] };

/** Everything the UI needs to draw a session. */
export interface SessionView {
  session: Session;
  messages: MessageWithParts[];
  /** True while a turn runs. */
  busy: boolean;
}

export interface PromptOptions {
  /** Provider id from settings (`ollama`, `lmstudio`, `openai`, `anthropic`, or a custom id). Defaults to settings.defaultProvider. */
  provider?: string;
  /** Model id; defaults to the provider's configured model. */
  model?: string;
  /** Steps before the turn stops (default 50). */
  maxSteps?: number;
}

/** How a turn ended. */
export interface TurnResult {
  /** The user message that started the turn. */
  userMessageId: string;
  /** The assistant message of the turn. */
  messageId: string;
  finishReason: 'stop' | 'tool-calls' | 'length' | 'aborted' | 'error' | 'max-steps' | 'other';
  steps: number;
  error?: LandfallError;
}

export interface ReplayOptions {
  /** `recorded`: only calls whose original outcome was ok; `live`: every file call. */
  mode: 'recorded' | 'live';
  /** Seed the project from the session's files.jsonl before replaying (default true). */
  seed?: boolean;
  /**
   * Seeding refuses (error `exists`) when a project file differs from the recording's base; `force` backs such
   * files up into `<dataDir>/replay-backups/<time>/` and overwrites them (replay/seed.ts).
   */
  force?: boolean;
}

/** One replayed call next to what the original tool recorded. */
export interface ReplayCallOutcome {
  seq: number;
  tool: string;
  path?: string;
  recorded: string;
  /** `ok` or the Landfall error code; `skipped` for context-only calls (bash, submit). */
  landfall: string;
  /** Name of the engine rung that matched (edit). */
  rung?: string;
  synthetic?: boolean;
}

export interface ReplayReport {
  sessionId: string;
  calls: ReplayCallOutcome[];
  /** Unified diff of the project from the start of the replay to its end (snapshot diff). */
  finalDiff: string;
  /** User message ids, one per replayed turn, in order. */
  userMessageIds: string[];
  /** What seeding did (absent with `seed: false`): files written, left alone (same bytes), backed up and where. */
  seed?: { written: string[]; unchanged: string[]; backedUp: string[]; backupDir?: string };
}

/** An answer to a permission question; `pattern` replaces the exact command of an editable "always" (always.ts). */
export type PermissionReply = { answer: 'once' | 'always' | 'reject'; reason?: string; pattern?: string };

export interface RevertOptions {
  /** Overwrite files the user changed after the agent's step. */
  force?: boolean;
  /** Compute what would happen, change nothing. */
  preview?: boolean;
}

/**
 * A file someone else changed since Landfall last wrote it: `changed_after_step` — its bytes differ from the
 * end of the agent's last step that wrote it; `changed_after_revert` — from what the revert in place wrote.
 */
export interface RevertConflict {
  path: string;
  /** `not_captured`: the file exists but no snapshot captured it (ignored, too large): it is never touched. */
  reason: 'changed_after_step' | 'changed_after_revert' | 'not_captured';
}

/** Outcome of revert/undo/redo: per-file lists; `applied` false when conflicts stopped it (or preview). */
export interface RevertResult {
  applied: boolean;
  restored: string[];
  deleted: string[];
  skipped: string[];
  conflicts: RevertConflict[];
  diff: string;
  session: Session;
  /**
   * What moving back could NOT put back: files the agent wrote inside a repository's own `.git` folder (no
   * snapshot holds them; git-dir-history.ts), or `.git (bash: …)` for a command that wrote there. Set by revert
   * and undo (also with preview); empty when there are none.
   */
  unrestorable?: string[];
}

export interface UndoResult extends RevertResult {
  /** The text of the user message undone (to put back in the prompt box). */
  text: string;
}

export interface ProviderSettings {
  id: string;
  kind: 'openai-compatible' | 'anthropic' | 'openai';
  baseURL?: string;
  model: string;
  /** Name of the environment variable holding the key (keys are never stored in the settings file). */
  apiKeyEnv?: string;
  /** The model's context window (tokens); absent: the catalog's default (agent/context/windows.ts). */
  contextWindow?: number;
  /** Tokens kept free for the reply (default 16,000). */
  outputReserve?: number;
}

export interface Settings {
  defaultProvider: string;
  providers: ProviderSettings[];
  permissions: PermissionRule[];
  /** Language servers turned off or added (src/main/lsp/servers.ts `lspSettingsSchema`); absent → the built-ins. */
  lsp?: LspSettings;
}

/** Extra knobs for embedding and tests; none is needed in normal use. */
export interface ServiceExtras {
  /** Language-server hook per project (src/main/lsp LspManager); none → no diagnostics. */
  diagnostics?: (project: Project) => DiagnosticsHook | undefined;
  tools?: ToolDefinition[];
  retry?: RetryPolicy;
  /**
   * Finds a provider's API key when a model is created (providers/keys.ts); default: the variable the provider's
   * `apiKeyEnv` names. The app passes its secret store first. The key goes to the provider client only.
   */
  keyFor?: KeyLookup;
  /** Landfall's own time per step in ms (snapshot + db + events), for the benchmark. */
  onStepOverhead?: (ms: number, detail: { snapshotMs: number }) => void;
}

export type { Project, Session };
