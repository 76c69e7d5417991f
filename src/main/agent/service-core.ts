/**
 * The state AgentService (service.ts) shares between its concerns — turns (turns.ts), history moves
 * (history-ops.ts), sessions (sessions.ts), replay (replay/run.ts) — passed to each explicitly instead of living
 * in one large class (DESIGN §10: explicit context). Nothing here is exported beyond the agent layer.
 *
 * Bookkeeping rules the concerns share: a session is in `running` from the moment a turn is admitted until it
 * ends (so a second turn, a rename, a delete or a history move of it is refused `busy` — also while another
 * process on the data folder runs a turn of it, session/running.ts), and in `reverting` while
 * a history move runs (so a turn cannot start meanwhile). `runningProject` tells a step whether another session of
 * its project runs (then it walks the tree afresh instead of reusing the last one).
 */
import { fail, isFailure, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import type { Session } from '../../shared/model';
import type { ObservedVersions } from '../fs/observed';
import type { SessionStore } from '../session/store';
import type { ToolDefinition } from '../tools/types';
import type { ConversationContext } from './context/conversation';
import type { McpHub } from '../reach/mcp/hub';
import type { PermissionGate } from './permission/gate';
import { openProjectRuntime, type ProjectRuntime } from './project';
import type { KeyLookup } from './providers/keys';
import type { ServiceExtras, ServiceOptions } from './service-types';
import type { LiveSettings } from './settings/live';
import type { QuestionBroker } from './questions';
import type { QueueRunner } from './queue';
import type { Intents } from '../session/intents';
import type { ProgressHub } from './progress';

export interface ServiceCore {
  readonly options: ServiceOptions & ServiceExtras;
  readonly store: SessionStore;
  readonly gate: PermissionGate;
  /** settings.json followed on disk: hand edits apply at the next tool call (settings/live.ts). */
  readonly live: LiveSettings;
  readonly observed: ObservedVersions;
  readonly tools: ToolDefinition[];
  /** The request ledger, baselines and change notices (context/conversation.ts). */
  readonly context: ConversationContext;
  /** MCP servers per project (src/main/reach/mcp/hub.ts): their tools join the built-in ones at each turn. */
  readonly mcp: McpHub;
  readonly keyFor: KeyLookup;
  readonly runtimes: Runtimes;
  /** Sessions running a turn, with the controller that stops it. */
  readonly running: Map<string, AbortController>;
  /** Project of each running session. */
  readonly runningProject: Map<string, string>;
  /** Sessions with a history move (revert, undo, …) in progress. */
  readonly reverting: Set<string>;
  /** Each history move's and review decision's write paired with its record (session/intents.ts). */
  readonly intents: Intents;
  /** The `done` of every turn still running (close waits for them). */
  readonly turnsDone: Set<Promise<unknown>>;
  /** Questions of the question tool waiting for the user (questions.ts). */
  readonly questions: QuestionBroker;
  /** The admission queue (queue.ts). */
  readonly queue: QueueRunner;
  /** Progress of long operations as `progress` events (progress.ts). */
  readonly progress: ProgressHub;
  emit(e: CoreEvent): void;
}

/** The open projects' runtimes (snapshot store, write log), opened on first use and kept until close. */
export class Runtimes {
  private readonly open = new Map<string, Promise<ProjectRuntime>>();

  constructor(
    private readonly store: SessionStore,
    private readonly options: ServiceOptions,
    /** Where the stores' progress reports go (tagged with their project). */
    private readonly progress?: ProgressHub,
  ) {}

  /** The runtime of a known project. Rejects for an unknown project, or with the snapshot store's failure. */
  forProject(projectId: string): Promise<ProjectRuntime> {
    let r = this.open.get(projectId);
    if (!r) {
      const project = this.store.getProject(projectId);
      if (!project) return Promise.reject(new Error(`unknown project ${projectId}`));
      const hub = this.progress;
      r = openProjectRuntime(
        project,
        this.options.dataDir,
        this.options.snapshotWorker,
        hub && ((report) => hub.storeReport(projectId, report)),
      );
      this.open.set(projectId, r);
    }
    return r;
  }

  /**
   * A session and its project's runtime. Errors: `invalid_input` for an unknown session; the snapshot store's
   * failure, else `unavailable`, when the store cannot be opened (it is tried again on the next call).
   */
  async forSession(sessionId: string): Promise<Result<{ session: Session; rt: ProjectRuntime }>> {
    const session = this.store.getSession(sessionId);
    if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
    try {
      return ok({ session, rt: await this.forProject(session.projectId) });
    } catch (e) {
      this.open.delete(session.projectId);
      if (isFailure(e)) return e.toFail();
      return fail(
        'unavailable',
        `The project's snapshot store could not be opened: ${(e as Error).message}`,
        'Check that the project folder still exists and the data folder is writable.',
      );
    }
  }

  /**
   * Opens a project's runtime now, in the background, when its store runs in a worker thread: the worker takes the
   * first track as soon as the store opens (snapshot/worker.ts), so a big project's first walk starts when the
   * project is opened, not on the first step. A failure is forgotten (the next call tries again and reports it).
   * Nothing happens for an in-thread store (the command line), whose walk would block this thread.
   */
  warm(projectId: string): void {
    if (!this.options.snapshotWorker || this.open.has(projectId)) return;
    this.forProject(projectId).catch(() => this.open.delete(projectId));
  }

  /** Close every open snapshot store (one that failed to open has nothing to close). */
  async close(): Promise<void> {
    for (const r of this.open.values()) await (await r.catch(() => undefined))?.close();
    this.open.clear();
  }
}
