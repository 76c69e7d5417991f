/**
 * Shapes AgentService (service.ts) takes and returns that are the agent layer's own: how it opens, how a turn is
 * asked for, started and ended, how a replay is asked for and reported, and the knobs for embedding. Shapes that
 * cross to the renderer are schemas in src/shared (model.ts, permission-schemas.ts, history-schemas.ts,
 * contract-schemas.ts); the history results are the session layer's (src/main/session/revert-types.ts); settings
 * are settings/schema.ts.
 */
import type { LanguageModel } from 'ai';
import type { Message, Project } from '../../shared/model';
import type { LoopLimits } from './loop-guard';
import type { ProviderSettings } from './settings/schema';
import type { LandfallError, Result } from '../../shared/errors';
import type { ConversationOptions } from './context/conversation';
import type { RetryPolicy } from './retry';
import type { ToolDefinition } from '../tools/types';
import type { DiagnosticsHook } from '../lsp/hook';
import type { KeyLookup } from './providers/keys';
import type { WindowSpec } from './context/windows';

/** Where the service keeps its state. `dataDir` holds landfall.db, snapshots/, settings.json, scratch/. */
export interface ServiceOptions {
  dataDir: string;
  /** Defaults to `<dataDir>/settings.json`. */
  settingsPath?: string;
  /**
   * Run each project's snapshot store in a worker thread (DESIGN §1: a first track can take seconds and
   * hundreds of MB, and must not block the process that answers the window). `true` finds the worker script
   * beside the store module; a bundled app passes the built script's URL. Default: in-thread (tests, CLI).
   */
  snapshotWorker?: boolean | { workerUrl: URL };
}

export interface PromptOptions {
  /** Provider id from settings (`ollama`, `lmstudio`, `openai`, `anthropic`, or a custom id). Defaults to settings.defaultProvider. */
  provider?: string;
  /** Model id; defaults to the provider's configured model. */
  model?: string;
  /** Steps before the turn stops (default 50). */
  maxSteps?: number;
  /** Writes the turn's user message (a queued message's promotion, session/inbox.ts) instead of storing the text. */
  promote?: () => Result<{ message: Message; text: string }>;
}

/** How a turn ended. */
export interface TurnResult {
  /** The user message that started the turn. */
  userMessageId: string;
  /** The assistant message of the turn. */
  messageId: string;
  /** `loop-detected`, `budget`: stopped by the loop guard (agent/loop-guard.ts); `error` says why. */
  finishReason:
    'stop' | 'tool-calls' | 'length' | 'aborted' | 'error' | 'max-steps' | 'loop-detected' | 'budget' | 'other';
  steps: number;
  error?: LandfallError;
}

/**
 * A turn that was admitted and runs: its user message and assistant message are stored (and their events sent)
 * before the handle is returned, so a caller never has to infer "started" from events. `done` settles when the
 * turn ends and never rejects: a failure inside the turn is `finishReason: 'error'` with the error (code
 * `internal` for a bug, whose message says so).
 */
export interface TurnHandle {
  /** The user message that started the turn. */
  userMessageId: string;
  /** The assistant message the turn writes its steps into. */
  messageId: string;
  done: Promise<TurnResult>;
}

/** How to start a turn: the configured provider (PromptOptions), or a model object handed in (replay, tests). */
export interface TurnOptions extends PromptOptions {
  /** Runs the turn with this model instead of the provider's (the replay provider, the AI SDK's mock models). */
  languageModel?: LanguageModel;
  /** `provider/model`, recorded on each step (default: the model object's provider and id). */
  label?: string;
  /** The loop guard's limits (default: from settings, agent/loop-guard.ts). */
  limits?: LoopLimits;
  /** Leave queued messages queued when this turn ends (a replay plays several turns in a row). */
  holdQueue?: boolean;
  /**
   * The model's window (default: the provider entry's `contextWindow`, else the catalog's, context/windows.ts),
   * the model that writes compaction summaries and its window (default: the one `settings.compaction` names,
   * agent/compaction-model.ts, else the turn's).
   */
  window?: { spec?: WindowSpec; summaryModel?: LanguageModel; summarySpec?: WindowSpec };
}

export interface ReplayOptions {
  /** `recorded`: only calls whose original outcome was ok; `live`: every file call. */
  mode: 'recorded' | 'live';
  /**
   * Someone watches (the app): permission questions wait for the user's answer, a turn that ends in error stops
   * the replay (the person sees it), a recording with nothing to replay is refused, and turns read as the
   * conversation ("Continue the recorded session …"). Unattended (the default; the command line, tests, the
   * benchmark): every question is answered "reject" at once, the replay goes on past a failed turn so its report
   * covers every recorded call, and turns name the recorded calls they replay.
   */
  attended?: boolean;
  /**
   * Attended only: the recording's `ask` marks (source.json) put their permission question, once each, even where
   * the rules allow the call — the first-run sample shows what a question looks like (replay/run.ts).
   */
  tour?: boolean;
  /** The first turn's user message (default: the recording's own prompt when attended). */
  text?: string;
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

/** A replay whose first turn was admitted (see TurnHandle); `done` settles with the report when the last turn ends. */
export interface ReplayHandle {
  /** The first turn (the later ones start as each one ends). */
  first: TurnHandle | undefined;
  done: Promise<Result<ReplayReport>>;
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

/** Extra knobs for embedding and tests; none is needed in normal use. */
export interface ServiceExtras {
  /** The conversation layer's date source and model-window lookup (agent/context/conversation.ts). */
  context?: ConversationOptions;
  /** Language-server hook per project (src/main/lsp LspManager); none → no diagnostics. */
  diagnostics?: (project: Project) => DiagnosticsHook | undefined;
  tools?: ToolDefinition[];
  retry?: RetryPolicy;
  /**
   * Finds a provider's API key when a model is created (providers/keys.ts); default: the variable the provider's
   * `apiKeyEnv` names. The app passes its secret store first. The key goes to the provider client only.
   */
  keyFor?: KeyLookup;
  /**
   * Makes the model a provider choice names, instead of the provider clients (tests: scripted models behind the
   * settings' providers, so the picker and the queue run as in the app).
   */
  models?: (provider: ProviderSettings, modelId: string) => LanguageModel;
  /** Landfall's own time per step in ms (snapshot + db + events), for the benchmark. */
  onStepOverhead?: (ms: number, detail: { snapshotMs: number }) => void;
}
