/**
 * The contract's handlers over the core (AgentService): the ONLY place where the app's two transports call into
 * main's services. Each handler receives input the router already parsed and answers a Result. What the platform
 * supplies differs per transport and comes in as `Platform`: the folder dialog and the secret store exist in
 * Electron; the web host has neither (a typed path; keys from each provider's `apiKeyEnv` variable, or typed in the
 * page for this run). Keys reach the provider client only (hostKeyLookup), never process.env.
 *
 * Adaptations to the core, kept here: turns run in the background (a call answers once the turn has started,
 * progress arrives as events); permission questions still waiting are remembered from events so a reloaded window
 * shows them; replay is attended (services-replay.ts); settings map to one provider choice (services-settings.ts).
 */
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, CallOutput, KeptFile, PermissionAsk } from '../../shared/contract';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import { AgentService } from '../agent/service';
import type { RevertResult } from '../agent/service-types';
import type { Handlers } from './router';
import { prepareReplay } from './services-replay';
import { importUploads } from './services-import';
import { appLanguageServers } from './services-lsp';
import {
  currentSettingsView,
  hostKeyLookup,
  isFirstRun,
  saveSettingsInput,
  settingsFile,
  testSettings,
} from './services-settings';
import { readSettingsFile } from './services-settings-file';
import { registerSecretSource } from '../proc/child-env';
import { followEventLog } from './event-follow';
import { attachmentText, fileTree, readProjectFile, saveProjectFile } from './services-files';

/** Where API keys live. `kind` tells the settings screen what to say about it. */
export interface SecretStore {
  kind(): 'os-secret-store' | 'unprotected' | 'environment';
  get(providerId: string): string | undefined;
  /** Stores (or with null removes) the key of a provider. */
  set(providerId: string, key: string | null): Promise<void>;
}

/** What the transport supplies. */
export interface Platform {
  transport: 'electron' | 'web';
  version: string;
  /** The native open-folder dialog (Electron); absent in the web host. */
  pickFolder?: () => Promise<string | null>;
  secrets: SecretStore;
  /** Folder holding `sample/` (project + recording). */
  resourcesDir: string;
}

export interface Services {
  handlers: Handlers;
  /** Every core event, in order; returns the unsubscribe function. */
  subscribe(listener: (event: AnyEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * The web host's store: a browser lends no OS secret store, so a key typed in the page lives in this process's
 * memory for this run only. Otherwise each provider's key is the variable its `apiKeyEnv` names (hostKeyLookup).
 */
export function environmentSecrets(): SecretStore {
  const memory = new Map<string, string>();
  return {
    kind: () => 'environment',
    get: (id) => memory.get(id),
    set: async (id, key) => void (key === null ? memory.delete(id) : memory.set(id, key)),
  };
}

/**
 * Waits until the session reports busy (the turn started) or `run` settles (it failed to start, or was over at
 * once). Answers run's failure, else `{ started: true }`; the run goes on in the background.
 */
async function startTurn(
  svc: AgentService,
  sessionId: string,
  run: () => Promise<Result<unknown>>,
): Promise<Result<{ started: true }>> {
  let off = (): void => {};
  const started = new Promise<'started'>((resolve) => {
    off = svc.on((e) => {
      if (e.type === 'session.state' && e.sessionId === sessionId && e.state === 'busy') resolve('started');
    });
  });
  const done = run().catch((error: unknown) =>
    fail(
      'internal',
      `The turn failed: ${error instanceof Error ? error.message : String(error)}`,
      'This is a bug; the session is stored as far as it got.',
    ),
  );
  const first = await Promise.race([started, done]);
  off();
  if (first !== 'started' && !first.ok) return first;
  return ok({ started: true });
}

/** Remembers permission questions still waiting, from the event stream. */
function trackAsks(svc: AgentService): (sessionId: string) => PermissionAsk[] {
  const asks = new Map<string, PermissionAsk>();
  svc.on((e: CoreEvent) => {
    if (e.type === 'permission.asked') asks.set(e.requestId, e);
    else if (e.type === 'permission.answered') asks.delete(e.requestId);
  });
  return (sessionId) => {
    const waiting = new Set(svc.pendingPermissions(sessionId).map((p) => p.requestId));
    return [...asks.values()].filter((a) => a.sessionId === sessionId && waiting.has(a.requestId));
  };
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'session'
  );
}

/**
 * Opens the core in `dataDir` and builds the handlers; `languageServers: false` runs without diagnostics.
 * Error: the core's (e.g. malformed settings.json).
 */
export async function createServices(options: {
  dataDir: string;
  platform: Platform;
  languageServers?: boolean;
  /** Snapshot stores in a worker thread (see ServiceOptions.snapshotWorker). */
  snapshotWorker?: boolean | { workerUrl: URL };
}): Promise<Result<Services>> {
  const { dataDir, platform } = options;
  // The servers follow the settings' `lsp` entry as it is when a project's manager is (re)created.
  const core: { svc?: AgentService } = {};
  const lsp = options.languageServers === false ? undefined : appLanguageServers(() => core.svc?.getSettings().lsp);
  const opened = await AgentService.open({
    dataDir,
    keyFor: hostKeyLookup(platform.secrets),
    ...(options.snapshotWorker ? { snapshotWorker: options.snapshotWorker } : {}),
    ...(lsp ? { diagnostics: (project) => lsp.hookFor(project) } : {}),
  });
  if (!opened.ok) return opened;
  const svc = opened.value;
  core.svc = svc;
  // A stored key copied into the user's environment under any name is removed from every child's environment too.
  const forgetStoredKeys = registerSecretSource(() => ({
    values: svc.getSettings().providers.map((p) => platform.secrets.get(p.id)),
  }));
  const asksOf = trackAsks(svc);
  const uploads = importUploads((projectId, json) => svc.importSession(projectId, json));
  const sampleDir = join(platform.resourcesDir, 'sample');
  /** The message with its @-mentioned files' text after it (services-files.ts attachmentText). */
  const withAttachments = async (
    sessionId: string,
    text: string,
    attachments: Parameters<typeof attachmentText>[1],
  ): Promise<Result<string>> => {
    if (attachments.length === 0) return ok(text);
    const view = svc.getSession(sessionId);
    if (!view.ok) return view;
    const root = rootOf(view.value.session.projectId);
    if (!root.ok) return root;
    const attached = await attachmentText(root.value, attachments);
    return attached.ok ? ok(`${text}\n\n${attached.value}`) : attached;
  };
  const rootOf = (projectId: string): Result<string> => {
    const project = svc.listProjects().find((p) => p.id === projectId);
    return project
      ? ok(project.root)
      : fail('invalid_input', `There is no project ${projectId}.`, 'Open the project again from the project list.');
  };
  const handlers: Handlers = {
    'app.info': async () => {
      const settingsError = (await readSettingsFile(settingsFile(dataDir))).error;
      return ok({
        version: platform.version,
        transport: platform.transport,
        nativeDialog: !!platform.pickFolder,
        firstRun: isFirstRun(dataDir),
        ...(settingsError ? { settingsError } : {}),
      });
    },
    'projects.list': async () => ok(svc.listProjects()),
    'projects.open': (i) => svc.openProject(i.root),
    'projects.pickFolder': async () =>
      platform.pickFolder
        ? ok({ root: await platform.pickFolder() })
        : fail('unavailable', 'There is no folder dialog in the browser.', 'Type the folder path instead.'),
    'projects.openSample': async () => {
      const target = join(dataDir, 'samples', `greeter-${Date.now().toString(36)}`);
      await mkdir(join(dataDir, 'samples'), { recursive: true });
      await cp(join(sampleDir, 'project'), target, { recursive: true });
      const project = await svc.openProject(target);
      if (!project.ok) return project;
      const session = svc.createSession(project.value.id, 'Sample: add a --shout flag');
      return session.ok ? ok({ project: project.value, session: session.value }) : session;
    },
    'sessions.list': async (i) => ok(svc.listSessions(i.projectId)),
    'sessions.create': async (i) => svc.createSession(i.projectId, i.title),
    'sessions.get': async (i) => {
      const view = svc.getSession(i.sessionId);
      return view.ok ? ok({ ...view.value, asks: asksOf(i.sessionId) }) : view;
    },
    'sessions.rename': async (i) => svc.renameSession(i.sessionId, i.title),
    'sessions.delete': async (i) => {
      const r = svc.deleteSession(i.sessionId);
      return r.ok ? ok({ deleted: true as const }) : r;
    },
    'sessions.export': async (i) => {
      const r = svc.exportSession(i.sessionId);
      return r.ok
        ? ok({ fileName: `${slug(r.value.session.title)}.landfall.json`, json: JSON.stringify(r.value, null, 2) })
        : r;
    },
    'sessions.import': async (i) => svc.importSession(i.projectId, i.json),
    'sessions.importBegin': async (i) => uploads.begin(i.projectId, i.length),
    'sessions.importPart': async (i) => uploads.part(i.uploadId, i.offset, i.text),
    'sessions.importEnd': async (i) => uploads.end(i.uploadId),
    'chat.prompt': async (i) => {
      const text = await withAttachments(i.sessionId, i.text, i.attachments ?? []);
      return text.ok ? startTurn(svc, i.sessionId, () => svc.prompt(i.sessionId, text.value)) : text;
    },
    'chat.replay': async (i) => {
      const dir = i.recording === 'sample' ? join(sampleDir, 'recording') : i.recording;
      const run = await prepareReplay(svc, i.sessionId, dir, i.text);
      return run.ok ? startTurn(svc, i.sessionId, run.value) : run;
    },
    'chat.stop': async (i) => ok({ stopped: svc.stop(i.sessionId) }),
    'permission.answer': async (i) => {
      const r = svc.answerPermission(i.askId, {
        answer: i.answer,
        ...(i.reason ? { reason: i.reason } : {}),
        ...(i.pattern ? { pattern: i.pattern } : {}),
      });
      return r.ok ? ok({ answered: true as const }) : r;
    },
    'history.undo': async (i) => {
      const r = await svc.undo(i.sessionId);
      return r.ok ? ok({ text: r.value.text || null, session: r.value.session, kept: keptFiles(r.value) }) : r;
    },
    'history.redo': async (i) => {
      const r = await svc.redo(i.sessionId);
      return r.ok ? ok({ redone: r.value.applied, session: r.value.session, kept: keptFiles(r.value) }) : r;
    },
    'history.revert': async (i) => {
      const r = await svc.revert(i.sessionId, i.messageId, i.partId, { force: i.force ?? false });
      return r.ok ? ok({ session: r.value.session, kept: keptFiles(r.value) }) : r;
    },
    'history.unrevert': async (i) => {
      const r = await svc.unrevert(i.sessionId);
      return r.ok ? ok({ session: r.value.session, kept: keptFiles(r.value) }) : r;
    },
    'review.timeline': async (i) => ok(svc.review.timeline(i.sessionId)),
    'review.diff': (i) => svc.review.diff(i.sessionId, i.target),
    'review.decide': (i) => svc.review.decide(i),
    'review.undo': (i) => svc.review.undo(i),
    'review.revertPreview': async (i) => {
      const r = await svc.revert(i.sessionId, i.messageId, undefined, { preview: true });
      return r.ok
        ? ok({ restored: r.value.restored, deleted: r.value.deleted, conflicts: r.value.conflicts, diff: r.value.diff })
        : r;
    },
    'files.tree': async (i) => {
      const root = rootOf(i.projectId);
      return root.ok ? ok(await fileTree(root.value)) : root;
    },
    'files.read': async (i) => {
      const root = rootOf(i.projectId);
      return root.ok ? readProjectFile(root.value, i.path) : root;
    },
    'files.save': async (i) => {
      const root = rootOf(i.projectId);
      return root.ok ? saveProjectFile(root.value, i.path, i.text, i.baseVersion, join(dataDir, 'journal')) : root;
    },
    'settings.get': async () => ok(await currentSettingsView(svc, platform.secrets, dataDir)),
    'settings.save': (i) => saveSettingsInput(svc, platform.secrets, dataDir, i),
    'settings.test': (i) => testSettings(svc, platform.secrets, i),
  };
  // Another window or the command line on this data folder: its stored changes reach this host's listeners too.
  const follower = followEventLog(join(dataDir, 'landfall.db'), (l) => svc.on(l));
  const close = async (): Promise<void> => {
    follower.close();
    forgetStoredKeys();
    await svc.close();
    await lsp?.shutdown();
  };
  const subscribe = (listener: (e: AnyEvent) => void): (() => void) => {
    const offs = [svc.on(listener), follower.on(listener)];
    return () => offs.forEach((off) => off());
  };
  return ok({ handlers, subscribe, close });
}

/**
 * The files a history move left as the user had them: every skipped file, with its conflict reason (B31: changed
 * after the agent's step, or after the revert wrote it); a skipped file without a conflict is one the snapshot store
 * could not write (`not_written`). A forced move still lists its conflicts but skips none, so it keeps nothing.
 */
function keptFiles(r: Pick<RevertResult, 'skipped' | 'conflicts' | 'unrestorable'>): KeptFile[] {
  return [
    ...r.skipped.map((path) => ({
      path,
      reason: r.conflicts.find((c) => c.path === path)?.reason ?? ('not_written' as const),
    })),
    ...(r.unrestorable ?? []).map((path) => ({ path, reason: 'git_dir' as const })),
  ];
}

export type { CallOutput };
