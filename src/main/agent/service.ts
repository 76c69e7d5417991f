/**
 * AgentService — the one facade host/ (web, command line) and electron/ call. Everything it answers is data:
 * expected failures come back as `Result` (codes from shared/errors.ts), never thrown; events (shared/events.ts)
 * go to listeners registered with `on()`.
 *
 *   const svc = await AgentService.open({ dataDir });
 *   const project = (await svc.openProject('/path/to/repo')).value;
 *   const session = svc.createSession(project.id).value;
 *   svc.on((event) => ...);
 *   await svc.prompt(session.id, 'fix the failing test');      // resolves when the turn ends
 *   await svc.undo(session.id);                                 // files back, prompt text returned
 *
 * State lives in `dataDir`: landfall.db (SQLite, WAL), snapshot/ (shadow git per project), settings.json,
 * scratch/ (whole tool outputs the output cap saved; swept of files older than 7 days at open and hourly). Explicit context, no ambient "current project" (DESIGN §10).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModel } from 'ai';
import { fail, isFailure, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { CoreEvent, CoreListener } from '../../shared/events';
import type { Part, Project, Session } from '../../shared/model';
import type { GcReport } from '../snapshot/types';
import { ObservedVersions } from '../fs/observed';
import { realRoot } from '../fs/workspace';
import { recoverWrites, type RecoveryReport } from '../fs/recovery';
import { startOutputSweeper } from '../tools/output-cap-file';
import { SessionStore } from '../session/store';
import * as history from '../session/revert';
import type { ReviewService } from '../session/review';
import { createReviewService } from '../session/review/service-factory';
import type { ToolDefinition } from '../tools/types';
import { defaultTools, toSdkTools } from '../tools/registry';
import { PermissionGate } from './gate';
import { runTurn, type TurnInput } from './loop';
import { windowFor } from './context/windows';
import { openProjectRuntime } from './project';
import type { ProjectRuntime } from './project';
import { createModel, findProvider } from './providers';
import { environmentKey } from './providers/keys';
import type { KeyLookup } from './providers/keys';
import { registerSecretSource } from '../proc/child-env';
import { replayCorpusSession } from './replay/run';
import type { ReplayHooks } from './replay/run';
import { exportSession, importSession } from './session-io';
import type { SessionExport } from './session-io';
import { loadSettings, saveSettings, DEFAULT_SETTINGS } from './settings';
import { LiveSettings } from './settings-live';
import { unrestorableGitWrites } from './git-dir-history';
import { testConnection } from './test-connection';
import { DEFAULT_TITLE, SYSTEM_PROMPT, titleFrom } from './defaults';
import type {
  PermissionReply,
  ServiceExtras,
  PromptOptions,
  ProviderSettings,
  ReplayOptions,
  ReplayReport,
  RevertOptions,
  RevertResult,
  ServiceOptions,
  SessionView,
  Settings,
  TurnResult,
  UndoResult,
} from './service-types';

export type { ServiceExtras } from './service-types';
export { DEFAULT_TITLE, SYSTEM_PROMPT } from './defaults';

/** The facade (see the module docstring): open with `AgentService.open`, close with `close()`. */
export class AgentService {
  private readonly listeners = new Set<CoreListener>();
  private readonly runtimes = new Map<string, Promise<ProjectRuntime>>();
  private readonly running = new Map<string, AbortController>();
  /** Project of each running session (a step may reuse its last tree only while no other session of it runs). */
  private readonly runningProject = new Map<string, string>();
  /** Sessions with a history operation (revert, undo, …) in progress. */
  private readonly reverting = new Set<string>();
  private readonly observed = new ObservedVersions();
  private readonly gate: PermissionGate;
  private readonly tools: ToolDefinition[];
  /** settings.json followed on disk: hand edits apply at the next tool call (settings-live.ts). */
  private readonly live: LiveSettings;
  private readonly keyFor: KeyLookup;
  /** Removes this service's key-variable names from the child-environment scrub (proc/child-env.ts). */
  private readonly forgetSecretNames: () => void;
  readonly store: SessionStore;

  private constructor(
    readonly options: ServiceOptions & ServiceExtras,
    settings: Settings,
  ) {
    this.store = SessionStore.open(path.join(options.dataDir, 'landfall.db'), (e) => this.emit(e));
    this.live = new LiveSettings(AgentService.settingsFile(options), settings);
    this.gate = new PermissionGate(this.store, () => this.live.rules());
    this.tools = options.tools ?? defaultTools();
    this.keyFor = options.keyFor ?? environmentKey();
    // Every child (bash, language servers) loses the variables the providers name as key sources, as they are now.
    this.forgetSecretNames = registerSecretSource(() => ({
      names: this.live.current().providers.map((p) => p.apiKeyEnv),
    }));
  }

  /**
   * Open (creating) the data folder. Errors: `invalid_input` when settings.json is malformed (defaults are not
   * silently used); `io_error` when landfall.db is not a readable database, `unavailable` when it was written by a
   * newer Landfall (session/db.ts) — in both cases the file is left untouched.
   */
  static async open(options: ServiceOptions & ServiceExtras): Promise<Result<AgentService>> {
    mkdirSync(options.dataDir, { recursive: true });
    const settings = await loadSettings(AgentService.settingsFile(options));
    if (!settings.ok) return settings;
    // Work-tree writes a killed process left half done are finished or rolled back before anything else runs.
    const recovered = recoverWrites(options.dataDir);
    try {
      const svc = new AgentService(options, settings.value);
      svc.recovered = recovered;
      svc.stopOutputSweeper = startOutputSweeper(path.join(options.dataDir, 'scratch'));
      return ok(svc);
    } catch (e) {
      if (isFailure(e, 'io_error', 'unavailable')) return e.toFail();
      throw e;
    }
  }

  /**
   * What recovery did when this service opened (src/main/fs/recovery.ts): interrupted multi-file writes — an
   * apply_patch, a revert, a review decision — rolled back or completed, oldest first. Also in
   * `<dataDir>/journal/recovered.log`; the UI and the command line show `describeRecovery` of each.
   */
  recovered: RecoveryReport[] = [];
  /** Stops the hourly removal of saved tool outputs older than 7 days (tools/output-cap-file.ts). */
  private stopOutputSweeper: () => void = () => undefined;

  private static settingsFile(o: ServiceOptions): string {
    return o.settingsPath ?? path.join(o.dataDir, 'settings.json');
  }

  /** Register a listener for every event; returns the function that removes it. */
  on(listener: CoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: CoreEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        /* a listener's bug must not break the loop */
      }
    }
  }

  private reviewService: ReviewService | undefined;

  /** Per-hunk review and the timeline of this service's sessions (session/review.ts, issue 8). */
  get review(): ReviewService {
    return (this.reviewService ??= createReviewService(
      this.store,
      async (id) => {
        const r = await this.runtimeOf(id);
        return r.ok ? ok({ root: r.value.rt.project.root, snapshot: r.value.rt.snapshot }) : r;
      },
      (id) => this.running.has(id),
      path.join(this.options.dataDir, 'journal'),
    ));
  }

  // ---- projects and sessions ----

  /**
   * Open (register) a project folder. Errors: `file_not_found` when it does not exist, `not_a_directory` when it is
   * a file (nothing is registered, so Recent stays as it was).
   */
  async openProject(root: string): Promise<Result<Project>> {
    let real: string;
    try {
      real = await realRoot(root);
    } catch {
      return fail('file_not_found', `${root} does not exist.`, 'Pick an existing folder.');
    }
    if (!statSync(real, { throwIfNoEntry: false })?.isDirectory())
      return fail(
        'not_a_directory',
        `${root} is a file, not a folder.`,
        'Pick the folder that holds the project (e.g. the one containing this file).',
      );
    return ok(this.store.upsertProject(real, path.basename(real)));
  }

  listProjects(): Project[] {
    return this.store.listProjects();
  }
  listSessions(projectId: string): Session[] {
    return this.store.listSessions(projectId);
  }

  /** New session in a project. Error `invalid_input` for an unknown project. */
  createSession(projectId: string, title = DEFAULT_TITLE): Result<Session> {
    if (!this.store.getProject(projectId))
      return fail('invalid_input', `No project ${projectId}.`, 'Open the project first.');
    return ok(this.store.createSession(projectId, title));
  }

  /**
   * Rename a session. Errors: `invalid_input` for an unknown session; `busy` while a turn runs (SESSION-API: the
   * running turn writes this session's row, so a rename would race it).
   */
  renameSession(id: string, title: string): Result<Session> {
    if (!this.store.getSession(id)) return fail('invalid_input', `No session ${id}.`, 'Pick a session from the list.');
    if (this.running.has(id))
      return fail('busy', 'The session is running a turn.', 'Wait for the turn to end (or stop it), then rename.');
    return ok(this.store.updateSession(id, { title }));
  }

  /** Delete a session (refused while it runs). Its files stay as they are. */
  deleteSession(id: string): Result<void> {
    if (this.running.has(id)) return fail('busy', 'The session is running a turn.', 'Stop it first.');
    this.store.deleteSession(id);
    this.gate.forget(id);
    this.observed.forget(id);
    return ok(undefined);
  }

  exportSession(id: string): Result<SessionExport> {
    return exportSession(this.store, id);
  }
  importSession(projectId: string, json: unknown): Result<Session> {
    return importSession(this.store, projectId, json);
  }

  /** A session with its messages and parts. */
  getSession(id: string): Result<SessionView> {
    const session = this.store.getSession(id);
    if (!session) return fail('invalid_input', `No session ${id}.`, 'Pick a session from the list.');
    return ok({ session, messages: this.store.messages(id), busy: this.running.has(id) });
  }

  private runtime(projectId: string): Promise<ProjectRuntime> {
    let r = this.runtimes.get(projectId);
    if (!r) {
      const project = this.store.getProject(projectId);
      if (!project) return Promise.reject(new Error(`unknown project ${projectId}`));
      r = openProjectRuntime(project, this.options.dataDir, this.options.snapshotWorker);
      this.runtimes.set(projectId, r);
    }
    return r;
  }

  private async runtimeOf(sessionId: string): Promise<Result<{ session: Session; rt: ProjectRuntime }>> {
    const session = this.store.getSession(sessionId);
    if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
    try {
      return ok({ session, rt: await this.runtime(session.projectId) });
    } catch (e) {
      this.runtimes.delete(session.projectId);
      if (isFailure(e)) return e.toFail();
      return fail(
        'unavailable',
        `The project's snapshot store could not be opened: ${(e as Error).message}`,
        'Check that the project folder still exists and the data folder is writable.',
      );
    }
  }

  // ---- turns ----

  /**
   * Run one turn with `model` for the user's `text`: commits a staged revert (cleanup), stores the user message,
   * runs the loop. Error `busy` when a turn already runs in this session.
   */
  async runWithModel(
    sessionId: string,
    model: LanguageModel,
    text: string,
    maxSteps = 50,
    context?: TurnInput['context'],
  ): Promise<Result<TurnResult>> {
    if (this.running.has(sessionId) || this.reverting.has(sessionId))
      return fail('busy', 'The session is already running a turn or a revert.', 'Wait for it to end or stop it.');
    const found = await this.runtimeOf(sessionId);
    if (!found.ok) return found;
    const { rt } = found.value;
    const abort = new AbortController();
    this.running.set(sessionId, abort);
    this.runningProject.set(sessionId, rt.project.id);
    const othersActive = (): boolean =>
      [...this.runningProject].some(([id, p]) => id !== sessionId && p === rt.project.id);
    this.emit({ type: 'session.state', sessionId, state: 'busy' });
    try {
      history.cleanup(this.store, sessionId);
      if (found.value.session.title === DEFAULT_TITLE && text.trim() !== '')
        this.store.updateSession(sessionId, { title: titleFrom(text) });
      const user = this.store.addMessage(sessionId, 'user', text);
      this.store.putPart({ id: `${user.id}_text`, sessionId, messageId: user.id, time: user.time, type: 'text', text });
      const result = await runTurn(
        {
          store: this.store,
          snapshot: rt.snapshot,
          gate: this.gate,
          model,
          tools: this.tools,
          sdkTools: toSdkTools(this.tools),
          ctx: {
            root: rt.project.root,
            sessionId,
            observed: this.observed,
            diagnostics: this.options.diagnostics?.(rt.project),
            scratchDir: path.join(this.options.dataDir, 'scratch'),
            journalDir: path.join(this.options.dataDir, 'journal'),
          },
          writes: rt.writes,
          system: SYSTEM_PROMPT,
          signal: abort.signal,
          emit: (e) => this.emit(e),
          maxSteps,
          retry: this.options.retry,
          onStepOverhead: this.options.onStepOverhead,
          othersActive,
          context,
        },
        user.id,
      );
      const e = result.error;
      this.emit(
        e
          ? {
              type: 'session.state',
              sessionId,
              state: 'error',
              error: { code: e.code, message: e.message, hint: e.hint },
            }
          : { type: 'session.state', sessionId, state: 'idle' },
      );
      return ok(result);
    } catch (e) {
      const error = isFailure(e)
        ? e.error
        : {
            code: 'internal' as const,
            message: (e as Error).message,
            hint: 'This is a bug; the session is stored as far as it got.',
          };
      this.emit({
        type: 'session.state',
        sessionId,
        state: 'error',
        error: { code: error.code, message: error.message, hint: error.hint },
      });
      if (isFailure(e)) return e.toFail();
      throw e;
    } finally {
      this.running.delete(sessionId);
      this.runningProject.delete(sessionId);
    }
  }

  /** Send the user's message and run a turn with the configured provider. Errors: `busy`, `invalid_input`, `unauthorized`. */
  async prompt(sessionId: string, text: string, options: PromptOptions = {}): Promise<Result<TurnResult>> {
    await this.live.refresh();
    const provider = findProvider(this.live.current(), options.provider);
    if (!provider.ok) return provider;
    const model = createModel(provider.value, this.keyFor(provider.value), options.model);
    if (!model.ok) return model;
    const spec = windowFor(options.model ?? provider.value.model, provider.value);
    return this.runWithModel(sessionId, model.value, text, options.maxSteps, { spec });
  }

  /**
   * Undo (or redo, `undone: false`) a compaction: the part stays, marked, and the next request is built as if it
   * had never run (context/compaction-history.ts) — byte for byte. Errors: `busy` while a turn runs,
   * `not_found` when the session has no such compaction part.
   */
  undoCompaction(sessionId: string, partId: string, undone = true): Result<void> {
    if (this.running.has(sessionId))
      return fail('busy', 'The session is running a turn.', 'Stop it or wait for it to end, then undo the compaction.');
    const part = this.store
      .messages(sessionId)
      .flatMap((m) => m.parts)
      .find((p): p is Extract<Part, { type: 'compaction' }> => p.id === partId && p.type === 'compaction');
    if (part === undefined)
      return fail(
        'not_found',
        `The session has no compaction ${partId}.`,
        'Open the session again and pick its marker.',
      );
    this.store.putPart({ ...part, undone });
    return ok(undefined);
  }

  /** Replay a recorded corpus session (folder) into this session's project; see replay/run.ts. */
  async replay(
    sessionId: string,
    corpusSessionDir: string,
    options: ReplayOptions,
    hooks: ReplayHooks = {},
  ): Promise<Result<ReplayReport>> {
    const found = await this.runtimeOf(sessionId);
    if (!found.ok) return found;
    return replayCorpusSession(this, found.value.rt, sessionId, corpusSessionDir, options, hooks);
  }

  /** Stop a running turn (the running tool becomes `interrupted`, partial text is kept). False when idle. */
  stop(sessionId: string): boolean {
    const abort = this.running.get(sessionId);
    if (!abort) return false;
    this.gate.cancel(sessionId);
    abort.abort(new Error('stopped by the user'));
    return true;
  }

  /** True while a turn runs in the session. */
  isBusy(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /**
   * Answer a permission question. Error `invalid_input` when it is not waiting (answered or stopped), or when an
   * "always" carries a pattern that is not allowed for it (agent/always.ts; the question stays open).
   */
  answerPermission(requestId: string, reply: PermissionReply): Result<void> {
    return this.gate.answer(requestId, reply);
  }

  /** Questions waiting for an answer (for a UI that reconnects). */
  pendingPermissions(sessionId?: string): ReturnType<PermissionGate['pending']> {
    return this.gate.pending(sessionId);
  }

  /** Make every "ask" of this session a rejection (unattended runs such as replay). */
  setUnattended(sessionId: string, unattended: boolean): void {
    this.gate.setUnattended(sessionId, unattended);
  }

  // ---- history ----

  /**
   * Run a history operation (revert, unrevert, undo, redo) with the session's deps, one at a time per session;
   * a snapshot store failure (LandfallFailure, e.g. a tree hash the store does not hold) comes back as data.
   */
  private async withHistory<T>(
    sessionId: string,
    op: (deps: history.RevertDeps) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    if (this.reverting.has(sessionId))
      return fail('busy', 'Another revert of this session is in progress.', 'Wait for it to finish.');
    this.reverting.add(sessionId);
    try {
      const found = await this.runtimeOf(sessionId);
      if (!found.ok) return found;
      return await op({ store: this.store, snapshot: found.value.rt.snapshot, busy: (id) => this.running.has(id) });
    } catch (e) {
      if (isFailure(e)) return e.toFail();
      throw e;
    } finally {
      this.reverting.delete(sessionId);
    }
  }

  /** Revert to before a message (or a part of it). See session/revert.ts. */
  async revert(
    sessionId: string,
    messageId: string,
    partId?: string,
    options: RevertOptions = {},
  ): Promise<Result<RevertResult>> {
    const boundary = partId === undefined ? { messageId } : { messageId, partId };
    const r = await this.withHistory(sessionId, (d) => history.revertTo(d, sessionId, boundary, options));
    return this.sayUnrestorable(sessionId, r, boundary);
  }

  /** Adds `unrestorable` (git-dir-history.ts) to a revert or undo result: what moving back to `boundary` left. */
  private async sayUnrestorable<T extends RevertResult>(
    sessionId: string,
    r: Result<T>,
    boundary: { messageId: string; partId?: string } | undefined = r.ok ? r.value.session.revert : undefined,
  ): Promise<Result<T>> {
    if (!r.ok) return r;
    return ok({ ...r.value, unrestorable: await unrestorableGitWrites(this.store.messages(sessionId), boundary) });
  }

  /** Clear the revert boundary, putting back the files it covered. See session/revert.ts for errors and conflicts. */
  async unrevert(sessionId: string): Promise<Result<RevertResult>> {
    return this.withHistory(sessionId, (d) => history.unrevert(d, sessionId));
  }

  /** Revert to the last user message before the boundary and give back its text. See session/revert.ts. */
  async undo(sessionId: string, options: RevertOptions = {}): Promise<Result<UndoResult>> {
    return this.sayUnrestorable(
      sessionId,
      await this.withHistory(sessionId, (d) => history.undo(d, sessionId, options)),
    );
  }

  /** Move the boundary forward one turn (unrevert at the last). See session/revert.ts. */
  async redo(sessionId: string, options: RevertOptions = {}): Promise<Result<RevertResult>> {
    return this.withHistory(sessionId, (d) => history.redo(d, sessionId, options));
  }

  /**
   * Prune the project's snapshot store: objects unreachable from every tree its sessions reference and older
   * than the retention are removed. Error `invalid_input` for an unknown project.
   */
  async gcSnapshots(projectId: string): Promise<Result<GcReport>> {
    if (!this.store.getProject(projectId))
      return fail('invalid_input', `No project ${projectId}.`, 'Open the project first.');
    const rt = await this.runtime(projectId);
    return ok(await rt.gc(this.store.referencedTrees(projectId)));
  }

  // ---- settings ----

  /** The settings in force: as last read from settings.json (re-read at every tool call when it changed). */
  getSettings(): Settings {
    return structuredClone(this.live.current());
  }

  /** Validate and save settings. Error `invalid_input` (nothing saved). */
  async saveSettings(settings: unknown): Promise<Result<Settings>> {
    const saved = await saveSettings(AgentService.settingsFile(this.options), settings);
    if (saved.ok) this.live.saved(saved.value);
    return saved;
  }

  /** Try a provider with a one-word request. Errors: `unauthorized`, `provider_error`, `context_length`. */
  testConnection(provider: ProviderSettings): Promise<Result<{ text: string; ms: number }>> {
    return testConnection(provider, this.keyFor(provider));
  }

  /** The built-in default settings (providers presets). */
  static defaultSettings(): Settings {
    return structuredClone(DEFAULT_SETTINGS);
  }

  /** Stop every turn, close snapshot stores and the database. */
  async close(): Promise<void> {
    for (const id of [...this.running.keys()]) this.stop(id);
    for (let i = 0; i < 100 && this.running.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    for (const r of this.runtimes.values()) await (await r).close();
    this.runtimes.clear();
    this.store.close();
    this.forgetSecretNames();
    this.stopOutputSweeper();
  }
}
