/**
 * AgentService — the one facade host/ (web, command line) and electron/ call. Everything it answers is data:
 * expected failures come back as `Result` (codes from shared/errors.ts), never thrown; events (shared/events.ts)
 * go to listeners registered with `on()`.
 *
 *   const svc = (await AgentService.open({ dataDir })).value;
 *   const project = (await svc.openProject('/path/to/repo')).value;
 *   const session = svc.createSession(project.id).value;
 *   svc.on((event) => ...);
 *   const started = await svc.startTurn(session.id, 'fix the failing test'); // answers once the turn runs
 *   const result = await started.value.turn.done;                          // settles when it ends
 *   await svc.undo(session.id);                                             // files back, prompt text returned
 *
 * State lives in `dataDir`: landfall.db (SQLite, WAL), snapshot/ (shadow git per project), settings.json,
 * scratch/ (whole tool outputs the output cap saved; files older than 7 days swept at open and hourly), journal/ (work-tree writes). Explicit context, no ambient "current project"
 * (DESIGN §10). The concerns live beside it: turns.ts, history-ops.ts, sessions.ts, replay/run.ts, settings/,
 * permission/; their shared state is service-core.ts.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SessionDetail } from '../../shared/contract-schemas';
import type { SessionSearchHit } from '../../shared/search-schemas';
import type { RunningTurn } from '../../shared/running-schemas';
import { runningTurns } from '../session/running';
import { fail, isFailure, ok } from '../../shared/errors';
import { todosOf } from '../../shared/todo';
import type { TodoItem } from '../../shared/todo';
import { readTalk } from '../session/talk';
import { QuestionBroker } from './questions';
import type { QuestionReply } from './questions';
import { QueueRunner } from './queue';
import type { InboxItem } from './queue';
import { chooseTalk, modesOf, talkView } from './talk-service';
import type { TalkView } from './talk-service';
import { modelLabel, talkSteps } from './talk-steps';
import type { LabelledModel } from './talk-steps';
import { SYSTEM_PROMPT } from './defaults';
import { compactNow } from './compact-now';
import type { Result } from '../../shared/errors';
import type { CoreEvent, CoreListener } from '../../shared/events';
import type { Part, Project, Session } from '../../shared/model';
import type { PermissionAsk, PermissionReply } from '../../shared/permission-schemas';
import { ObservedVersions } from '../fs/observed';
import { recoverWrites, type RecoveryReport } from '../fs/recovery';
import { Intents } from '../session/intents';
import { settleInterruptedMoves } from './history-recovery';
import { registerSecretSource } from '../proc/child-env';
import type { RevertOptions, RevertResult, UndoResult } from '../session/revert-types';
import type { ReviewService } from '../session/review';
import { createReviewService } from '../session/review/service-factory';
import { SessionStore } from '../session/store';
import type { GcReport } from '../snapshot/types';
import { defaultTools } from '../tools/registry';
import { McpHub } from '../reach/mcp/hub';
import { estimateTokens } from './context/tokens';
import { TrustStore } from '../reach/trust/store';
import { webfetchTool } from '../reach/webfetch/tool';
import { startOutputSweeper } from '../tools/output-cap-file';
import type { LanguageModel } from 'ai';
import * as historyOps from './history-ops';
import { PermissionGate } from './permission/gate';
import { createModel, findProvider } from './providers';
import { environmentKey } from './providers/keys';
import { startReplay, type ReplayHooks } from './replay/run';
import type { AskMark } from './permission/gate';
import { Runtimes, type ServiceCore } from './service-core';
import { ProgressHub } from './progress';
import type {
  ReplayHandle,
  ReplayOptions,
  ReplayReport,
  ServiceExtras,
  ServiceOptions,
  TurnHandle,
  TurnOptions,
  TurnResult,
} from './service-types';
import * as sessions from './sessions';
import { exportSession, importSession, type SessionExport } from './session-io';
import { LiveSettings } from './settings/live';
import { modelWindow, windowLookup } from './settings/models';
import { summaryModelFor } from './compaction-model';
import { loadSettings } from './settings/read';
import { saveSettings } from './settings/save';
import { DEFAULT_SETTINGS, type ProviderSettings, type Settings } from './settings/schema';
import { testConnection } from './test-connection';
import { startTurn, stopTurn, storeUserMessage } from './turns';
import { answerLoopStop, type LoopAnswer } from './loop-decision';
import { ConversationContext } from './context/conversation';
import { skillTool } from './context/skill-tool';
import type { ToolDefinition } from '../tools/types';

export type { ServiceExtras } from './service-types';
export { DEFAULT_TITLE, SYSTEM_PROMPT } from './defaults';

/** How long `close()` lets stopped turns finish writing before it closes the stores (ms). */
const CLOSE_GRACE_MS = 5_000;

/** The facade (see the module docstring): open with `AgentService.open`, close with `close()`. */
export class AgentService {
  private readonly listeners = new Set<CoreListener>();
  private readonly core: ServiceCore;
  /** Removes this service's key-variable names from the child-environment scrub (proc/child-env.ts). */
  private readonly forgetSecretNames: () => void;
  readonly store: SessionStore;
  /** The request ledger, baselines and change notices of this service's sessions (context/conversation.ts). */
  readonly context: ConversationContext;
  /** Trusted folders and approved project files (`<dataDir>/trust.json`, src/main/reach/trust/store.ts). */
  readonly trust: TrustStore;
  /** MCP servers per project (src/main/reach/mcp/hub.ts). */
  readonly mcp: McpHub;
  /** Progress of long operations, pushed as `progress` events (progress.ts); `active()` answers `progress.list`. */
  readonly progress: ProgressHub;

  private constructor(
    readonly options: ServiceOptions & ServiceExtras,
    settings: Settings,
  ) {
    const store = SessionStore.open(path.join(options.dataDir, 'landfall.db'), (e) => this.emit(e));
    const live = new LiveSettings(AgentService.settingsFile(options), settings);
    this.store = store;
    // the context meter's window: the settings' figure for the model, else the catalog's (settings/models.ts)
    this.context = new ConversationContext(store, options.dataDir, {
      windows: windowLookup(() => live.current()),
      ...options.context,
    });
    this.trust = TrustStore.open(path.join(options.dataDir, 'trust.json'));
    this.mcp = new McpHub(() => live.current().mcp, this.trust, estimateTokens);
    this.progress = new ProgressHub((e) => this.emit(e));
    this.core = {
      options,
      store,
      live,
      gate: new PermissionGate(store, () => live.rules()),
      observed: new ObservedVersions(),
      tools: options.tools ?? [
        ...defaultTools(),
        skillTool(options.dataDir) as unknown as ToolDefinition,
        webfetchTool({ allowHosts: async () => (await live.refresh(), live.current().webfetch?.allowHosts ?? []) }),
      ],
      context: this.context,
      mcp: this.mcp,
      keyFor: options.keyFor ?? environmentKey(),
      runtimes: new Runtimes(store, options, this.progress),
      progress: this.progress,
      running: new Map(),
      runningProject: new Map(),
      reverting: new Set(),
      intents: new Intents(store.db, path.join(options.dataDir, 'journal')),
      turnsDone: new Set(),
      emit: (e) => this.emit(e),
      questions: new QuestionBroker((sessionId, partId, question) =>
        this.emit({ type: 'question.asked', sessionId, partId, question }),
      ),
      queue: new QueueRunner({
        store,
        emit: (e) => this.emit(e),
        busy: (id) => this.core.running.has(id) || this.core.reverting.has(id),
        runPromoted: (id, promote) => this.prompt(id, '', { promote }),
      }),
    };
    // Every child (bash, language servers) loses the variables the providers name as key sources, as they are now.
    this.forgetSecretNames = registerSecretSource(() => ({
      names: live.current().providers.map((p) => p.apiKeyEnv),
    }));
  }

  /**
   * Open (creating) the data folder. Errors: `invalid_input` when settings.json cannot be used (defaults are not
   * silently used; the message names the line and column, or the fields); `io_error` when landfall.db is not a
   * readable database, `unavailable` when it was written by a newer Landfall (session/db.ts) — in every case the
   * file is left untouched.
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
      // Moves whose files were written before their record was (session/intents.ts) get their record now.
      svc.settledMoves = await settleInterruptedMoves(svc.core);
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
  /**
   * History moves and review decisions a killed process left with their files written but not their record, now
   * recorded (agent/history-recovery.ts), one line each.
   */
  settledMoves: string[] = [];
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

  /** Per-hunk review and the timeline of this service's sessions (session/review.ts). */
  get review(): ReviewService {
    return (this.reviewService ??= createReviewService(
      this.store,
      async (id) => {
        const r = await this.core.runtimes.forSession(id);
        return r.ok ? ok({ root: r.value.rt.project.root, snapshot: r.value.rt.snapshot }) : r;
      },
      (id) => this.core.running.has(id),
      path.join(this.options.dataDir, 'journal'),
      this.core.intents,
    ));
  }

  // ---- projects and sessions (sessions.ts) ----

  /**
   * Open (register) a project folder. Errors: `file_not_found`, `not_a_directory` (nothing registered). With
   * snapshot stores in a worker thread, its store opens now and takes its first track in the background (reported
   * as `progress`), so the first step does not wait for a big project's first walk.
   */
  async openProject(root: string): Promise<Result<Project>> {
    const r = await sessions.openProject(this.core, root);
    if (r.ok) this.core.runtimes.warm(r.value.id);
    return r;
  }
  listProjects(): Project[] {
    return this.store.listProjects();
  }
  listSessions(projectId: string): Session[] {
    return this.store.listSessions(projectId);
  }
  /** Turns running now on this data folder, in this process or another (session/running.ts). */
  runningTurns(): RunningTurn[] {
    return runningTurns(this.store.db);
  }
  /** Sessions of a project matching `query` by title or message text (sessions.ts searchSessions). */
  searchSessions(projectId: string, query: string): Result<SessionSearchHit[]> {
    return sessions.searchSessions(this.core, projectId, query);
  }
  /** New session in a project. Error `invalid_input` for an unknown project. */
  createSession(projectId: string, title?: string): Result<Session> {
    return sessions.createSession(this.core, projectId, title);
  }
  /** Rename a session. Errors: `invalid_input` for an unknown session; `busy` while a turn runs. */
  renameSession(id: string, title: string): Result<Session> {
    return sessions.renameSession(this.core, id, title);
  }
  /** Delete a session (refused `busy` while it runs). Its files stay as they are. */
  deleteSession(id: string): Result<void> {
    return sessions.deleteSession(this.core, id);
  }
  exportSession(id: string): Result<SessionExport> {
    return exportSession(this.store, id);
  }
  /** Import a session export (session-io.ts); `stored` hears each message stored (done, total). */
  importSession(projectId: string, json: unknown, stored?: (done: number, total: number) => void): Result<Session> {
    return importSession(this.store, projectId, json, stored);
  }
  /** A session with its messages and parts, whether it runs, and its permission questions still waiting. */
  getSession(id: string): Result<SessionDetail> {
    return sessions.getSession(this.core, id);
  }
  /** Prune the project's snapshot store of objects no session references. Error `invalid_input` (unknown project). */
  gcSnapshots(projectId: string): Promise<Result<GcReport>> {
    return sessions.gcSnapshots(this.core, projectId);
  }

  // ---- turns (turns.ts) ----

  /**
   * Start a turn for the user's `text` and answer as soon as it runs: the handle names the stored user and
   * assistant messages, and its `done` settles when the turn ends. The model is `options.languageModel`, else
   * the configured provider's (`options.provider`, `options.model`). Errors, with nothing stored: `busy`,
   * `invalid_input` (unknown session or provider), `unauthorized`, the snapshot store's.
   */
  async startTurn(sessionId: string, text: string, options: TurnOptions = {}): Promise<Result<{ turn: TurnHandle }>> {
    const made = await this.turnModel(sessionId, options);
    if (!made.ok) return made;
    const { model, window } = made.value;
    return startTurn(this.core, sessionId, model.model, text, options.maxSteps, {
      steps: this.talkSteps(sessionId, model),
      ...(window ? { window } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.promote ? { promote: options.promote } : {}),
      ...(options.holdQueue ? { holdQueue: true } : {}),
    });
  }

  /**
   * The model and window a turn of `sessionId` uses: `options.languageModel`, else the configured provider's
   * (`options.provider`, `options.model`), else the session's picker choice, else the settings' default. With a
   * provider's model, the window is that model's (settings/models.ts) and compaction summaries go to the model
   * `settings.compaction` names, if any (compaction-model.ts). Errors `invalid_input` (unknown provider),
   * `unauthorized`.
   */
  private async turnModel(
    sessionId: string,
    options: TurnOptions,
  ): Promise<Result<{ model: LabelledModel; window?: TurnOptions['window'] }>> {
    if (options.languageModel)
      return ok({
        model: { model: options.languageModel, label: options.label ?? modelLabel(options.languageModel) },
        window: options.window,
      });
    await this.core.live.refresh();
    const stored = readTalk(this.store.db, sessionId);
    const made = this.labelledModel({
      provider: options.provider ?? stored?.provider,
      model: options.model ?? (options.provider === undefined ? stored?.model : undefined),
    });
    if (!made.ok) return made;
    const settings = this.core.live.current();
    const provider = findProvider(settings, options.provider ?? stored?.provider);
    const id = typeof made.value.model === 'string' ? made.value.model : made.value.model.modelId;
    const summary = summaryModelFor(settings, (c) => this.labelledModel(c));
    const window: TurnOptions['window'] = {
      ...(options.window?.spec
        ? { spec: options.window.spec }
        : provider.ok
          ? { spec: modelWindow(provider.value, id) }
          : {}),
      ...(summary.summaryModel ? { summaryModel: summary.summaryModel, summarySpec: summary.summarySpec } : {}),
      ...options.window,
    };
    return ok({ model: made.value, window });
  }

  /** The model a picker choice names, labelled `provider/model`. Errors `invalid_input`, `unauthorized`. */
  private labelledModel(choice: { provider?: string; model?: string }): Result<LabelledModel> {
    const provider = findProvider(this.core.live.current(), choice.provider);
    if (!provider.ok) return provider;
    const id = choice.model ?? provider.value.model;
    const given = this.options.models?.(provider.value, id);
    const made = given ? ok(given) : createModel(provider.value, this.core.keyFor(provider.value), choice.model);
    if (!made.ok) return made;
    return ok({ model: made.value, label: `${provider.value.id}/${id}` });
  }

  /** The per-step setup of a turn of `sessionId` (talk-steps.ts): the stored mode and model, read at every step. */
  private talkSteps(sessionId: string, start: LabelledModel): ReturnType<typeof talkSteps> {
    const stored = readTalk(this.store.db, sessionId);
    return talkSteps({
      store: this.store,
      sessionId,
      modes: () => modesOf(this.core.live.current()),
      tools: this.core.tools,
      system: SYSTEM_PROMPT,
      gate: this.core.gate,
      start: { ...start, choice: { provider: stored?.provider, model: stored?.model } },
      createModel: (c) => this.labelledModel(c),
    });
  }

  // ---- the conversation layer: mode and model, questions, todos, the admission queue ----

  /** The session's mode and model and what the picker offers (talk-service.ts). */
  getTalk(sessionId: string): TalkView {
    return talkView(this.store, this.core.live.current(), sessionId);
  }

  /**
   * Choose the mode and/or model of the session's next step; while a turn runs it takes effect at the next step.
   * Error `invalid_input` for an unknown session, mode or provider (nothing stored).
   */
  setTalk(sessionId: string, change: { mode?: string; provider?: string; model?: string }): Result<TalkView> {
    return chooseTalk(this.store, this.core.live.current(), sessionId, change);
  }

  /**
   * Answer the question tool's open question (tool part `partId`): picked labels and/or free text, or dismiss.
   * Error `invalid_input` when it is not open (answered, stopped, interrupted by a restart) or the reply does not
   * fit the question (questions.ts judgeReply); the question then stays open.
   */
  answerQuestion(sessionId: string, partId: string, reply: QuestionReply): Result<void> {
    return this.core.questions.answer(sessionId, partId, reply);
  }

  /**
   * Answer the question a repetition stop asks (loop-decision.ts): 'continue' ("Go on") starts a new turn whose
   * user message tells the model the user let it go on (the repetition counters start afresh; the model as for
   * startTurn, `options`); 'stop' ("Stop here") only marks it. At most once per stop. Errors, with nothing changed:
   * `invalid_input`, `busy`, `not_found` (no such stop waiting), `conflict` (decided already), startTurn's.
   */
  answerLoop(
    sessionId: string,
    partId: string,
    decision: 'continue' | 'stop',
    options: TurnOptions = {},
  ): Promise<Result<LoopAnswer<TurnHandle>>> {
    return answerLoopStop(
      {
        store: this.store,
        busy: (id) => this.core.running.has(id) || this.core.reverting.has(id),
        start: (promote) => this.startTurn(sessionId, '', { ...options, promote }),
        storeUser: (text) => storeUserMessage(this.store, sessionId, text),
      },
      sessionId,
      partId,
      decision,
    );
  }

  /** The session's todo list in force (src/shared/todo.ts: follows revert / unrevert). Empty for an unknown session. */
  todos(sessionId: string): TodoItem[] {
    const session = this.store.getSession(sessionId);
    return session ? todosOf(this.store.messages(sessionId), session.revert) : [];
  }

  /**
   * Send a message through the admission queue (queue.ts): stored at once, promoted when the session is idle
   * (now, or when the running turn ends) or — `steer` — at the running turn's next step boundary. `started`: a
   * turn started with it right away. Error `invalid_input` for an unknown session.
   */
  send(sessionId: string, text: string, steer = false): Result<InboxItem & { started: boolean }> {
    if (!this.store.getSession(sessionId)) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session.');
    return ok(this.core.queue.send(sessionId, text, steer));
  }

  /** The admission queue of this service (list, edit, remove, resume; queue.ts). */
  get queued(): Pick<QueueRunner, 'list' | 'edit' | 'remove' | 'resume'> {
    return this.core.queue;
  }

  /** Run a turn with the configured provider and wait for its end (startTurn, then `done`). */
  async prompt(sessionId: string, text: string, options: TurnOptions = {}): Promise<Result<TurnResult>> {
    const started = await this.startTurn(sessionId, text, options);
    return started.ok ? ok(await started.value.turn.done) : started;
  }

  /** Run a turn with `model` (replay, tests) and wait for its end (startTurn, then `done`). */
  runWithModel(
    sessionId: string,
    model: LanguageModel,
    text: string,
    maxSteps = 50,
    window?: TurnOptions['window'],
  ): Promise<Result<TurnResult>> {
    return this.prompt(sessionId, text, { languageModel: model, maxSteps, ...(window ? { window } : {}) });
  }

  /**
   * Compact the session's older history now (compact-now.ts; the chat's /compact), with the model and window its
   * next turn would use (`options` as startTurn's). Answers the stored part, trigger 'manual'. Errors: `busy`,
   * `invalid_input`, `no_change` (nothing older to fold), the provider's.
   */
  async compactNow(
    sessionId: string,
    options: Pick<TurnOptions, 'languageModel' | 'provider' | 'model' | 'window'> = {},
  ): Promise<Result<Part>> {
    if (!this.store.getSession(sessionId)) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session.');
    const made = await this.turnModel(sessionId, options);
    if (!made.ok) return made;
    return compactNow(this.core, sessionId, { model: made.value.model.model, window: made.value.window });
  }

  /**
   * Undo (or redo, `undone: false`) a compaction: the part stays, marked, and the next request is built as if it
   * had never run (context/compaction-history.ts) — byte for byte. Errors: `busy` while a turn runs,
   * `not_found` when the session has no such compaction part.
   */
  undoCompaction(sessionId: string, partId: string, undone = true): Result<void> {
    if (this.core.running.has(sessionId))
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

  /** Stop a running turn (the running tool becomes `interrupted`, partial text is kept). False when idle. */
  stop(sessionId: string): boolean {
    return stopTurn(this.core, sessionId);
  }

  /** True while a turn runs in the session. */
  isBusy(sessionId: string): boolean {
    return this.core.running.has(sessionId);
  }

  /**
   * Answer a permission question. Error `invalid_input` when it is not waiting (answered or stopped), or when an
   * "always" carries a pattern that is not allowed for it (permission/always.ts; the question stays open).
   */
  answerPermission(requestId: string, reply: PermissionReply): Result<void> {
    return this.core.gate.answer(requestId, reply);
  }

  /** Questions waiting for an answer, oldest first, as the events that asked them (of one session, or all). */
  pendingPermissions(sessionId?: string): PermissionAsk[] {
    return this.core.gate.pending(sessionId);
  }

  /** Ask where a recorded session marks it, once per mark (gate.ts setAskMarks); `null` clears the marks. */
  setAskMarks(sessionId: string, marks: readonly AskMark[] | null): void {
    this.core.gate.setAskMarks(sessionId, marks);
  }

  /** Make every "ask" of this session a rejection (unattended runs such as a command-line replay). */
  setUnattended(sessionId: string, unattended: boolean): void {
    this.core.gate.setUnattended(sessionId, unattended);
  }

  // ---- replay (replay/run.ts) ----

  /**
   * Start replaying a recorded corpus session (folder) into this session's project; answers once its first turn
   * runs (replay/run.ts for the rules and errors). `options.attended`: the app's replay, whose questions wait.
   */
  async startReplay(
    sessionId: string,
    corpusSessionDir: string,
    options: ReplayOptions,
    hooks: ReplayHooks = {},
  ): Promise<Result<ReplayHandle>> {
    const found = await this.core.runtimes.forSession(sessionId);
    if (!found.ok) return found;
    const { rt } = found.value;
    const target = { sessionId, root: rt.project.root, snapshot: rt.snapshot, dataDir: this.options.dataDir };
    return startReplay(this, target, corpusSessionDir, options, hooks);
  }

  /** Replay a recorded corpus session and wait for its report (startReplay, then `done`). */
  async replay(
    sessionId: string,
    corpusSessionDir: string,
    options: ReplayOptions,
    hooks: ReplayHooks = {},
  ): Promise<Result<ReplayReport>> {
    const started = await this.startReplay(sessionId, corpusSessionDir, options, hooks);
    return started.ok ? started.value.done : started;
  }

  // ---- history (history-ops.ts; the moves are session/revert.ts) ----

  /** Revert to before a message (or a part of it). */
  revert(
    sessionId: string,
    messageId: string,
    partId?: string,
    options: RevertOptions = {},
  ): Promise<Result<RevertResult>> {
    const boundary = partId === undefined ? { messageId } : { messageId, partId };
    return historyOps.revert(this.core, sessionId, boundary, options);
  }
  /** Clear the revert boundary, putting back the files it covered. */
  unrevert(sessionId: string): Promise<Result<RevertResult>> {
    return historyOps.unrevert(this.core, sessionId);
  }
  /** Revert to the last user message before the boundary and give back its text. */
  undo(sessionId: string, options: RevertOptions = {}): Promise<Result<UndoResult>> {
    return historyOps.undo(this.core, sessionId, options);
  }
  /** Move the boundary forward one turn (unrevert at the last). */
  redo(sessionId: string, options: RevertOptions = {}): Promise<Result<RevertResult>> {
    return historyOps.redo(this.core, sessionId, options);
  }

  // ---- settings (settings/) ----

  /** The settings in force: as last read from settings.json (re-read at every tool call when it changed). */
  getSettings(): Settings {
    return structuredClone(this.core.live.current());
  }

  /**
   * Validate and save settings, keeping the file's comments where it can (settings/save.ts); in force at once.
   * `options.base`: the file version the values were loaded from. Errors, nothing saved: `invalid_input`
   * (`data.issues`), `stale` (the file is no longer `base`), `conflict` (settings.json on disk cannot be used).
   */
  async saveSettings(settings: unknown, options: { base?: string } = {}): Promise<Result<Settings>> {
    const saved = await saveSettings(AgentService.settingsFile(this.options), settings, options);
    if (saved.ok) this.core.live.saved(saved.value);
    return saved;
  }

  /** Try a provider with a one-word request. Errors: `unauthorized`, `provider_error`, `context_length`. */
  testConnection(provider: ProviderSettings): Promise<Result<{ text: string; ms: number }>> {
    return testConnection(provider, this.core.keyFor(provider));
  }

  /** The built-in default settings (providers presets). */
  static defaultSettings(): Settings {
    return structuredClone(DEFAULT_SETTINGS);
  }

  /** Stop every turn, let them finish writing (at most CLOSE_GRACE_MS), close snapshot stores and the database. */
  async close(): Promise<void> {
    for (const id of [...this.core.running.keys()]) this.stop(id);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
    await Promise.race([Promise.all(this.core.turnsDone), grace]);
    clearTimeout(timer);
    await this.core.runtimes.close();
    this.progress.close();
    await this.mcp.close();
    this.store.close();
    this.forgetSecretNames();
    this.stopOutputSweeper();
  }
}
