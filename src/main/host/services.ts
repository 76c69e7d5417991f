/**
 * The contract's handlers over the core (AgentService): the ONLY place where the app's two transports call into
 * main's services. Each handler receives input the router already parsed and answers a Result. What the platform
 * supplies differs per transport and comes in as `Platform` (platform.ts): the folder dialog and the secret store
 * exist in Electron; the web host has neither (a typed path; keys from each provider's `apiKeyEnv` variable, or
 * typed in the page for this run). Keys reach the provider client only (hostKeyLookup), never process.env.
 *
 * Adaptations to the core, kept here: a turn or a replay answers as soon as the core admitted it (the core's turn
 * handle; progress arrives as events); history moves answer the files they kept; settings are the whole document,
 * saved through the one schema with the stale rule (services-settings.ts), and a change of settings.json on disk is
 * pushed as `settings.changed` (settings-watch.ts). Waiting permission questions come from the core's gate (`sessions.get`).
 */
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, CallOutput, KeptFile } from '../../shared/contract';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { AgentService } from '../agent/service';
import { readSettingsFile } from '../agent/settings/read';
import type { RevertResult } from '../session/revert-types';
import { registerSecretSource } from '../proc/child-env';
import type { Platform } from './platform';
import type { Handlers } from './router';
import { importUploads, singleImport } from './services-import';
import { followEventLog } from './event-follow';
import { fileHandlers } from './services-files';
import { appLanguageServers } from './services-lsp';
import { setTrust, trustView } from './services-trust';
import { approveProjectMcp, mcpView, toggleMcp } from './services-mcp';
import {
  currentSettingsView,
  hostKeyLookup,
  isFirstRun,
  resetSettings,
  saveSettingsForm,
  settingsFile,
  testSettings,
  typedWindows,
} from './services-settings';
import { watchSettings } from './settings-watch';

export interface Services {
  handlers: Handlers;
  /** Every core event, in order; returns the unsubscribe function. */
  subscribe(listener: (event: AnyEvent) => void): () => void;
  close(): Promise<void>;
}

/** A core answer that started something in the background, as the contract's `{ started: true }`. */
function started(r: Result<unknown>): Result<{ started: true }> {
  return r.ok ? ok({ started: true as const }) : r;
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
  const lsp =
    options.languageServers === false
      ? undefined
      : appLanguageServers(
          () => core.svc?.getSettings().lsp,
          (root) => core.svc?.trust.isTrusted(root) ?? false,
        );
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
  const importOne = (projectId: string, json: string, stored?: (done: number, total: number) => void) =>
    svc.importSession(projectId, json, stored);
  const uploads = importUploads(importOne, Date.now, svc.progress);
  const sampleDir = join(platform.resourcesDir, 'sample');
  const files = fileHandlers(svc, dataDir);
  const handlers: Handlers = {
    ...files.handlers,
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
    'sessions.search': async (i) => svc.searchSessions(i.projectId, i.query),
    'sessions.running': async () => ok(svc.runningTurns()),
    'sessions.create': async (i) => svc.createSession(i.projectId, i.title),
    'sessions.get': async (i) => {
      const view = svc.getSession(i.sessionId);
      if (!view.ok) return view;
      const queued = svc.queued.list(i.sessionId).map(({ id, sessionId, text, time, steer }) => ({
        id,
        sessionId,
        text,
        time,
        steer,
      }));
      return ok({ ...view.value, queued });
    },
    'sessions.rename': async (i) => svc.renameSession(i.sessionId, i.title),
    'context.get': async (i) => svc.context.view(i.sessionId, i.step),
    'compaction.run': (i) => svc.compactNow(i.sessionId),
    'compaction.undo': async (i) => {
      const r = svc.undoCompaction(i.sessionId, i.partId, i.undone);
      return r.ok ? ok({ undone: i.undone }) : r;
    },
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
    'sessions.import': async (i) => singleImport(importOne, i.projectId, i.json, svc.progress),
    'sessions.importBegin': async (i) => uploads.begin(i.projectId, i.length),
    'sessions.importPart': async (i) => uploads.part(i.uploadId, i.offset, i.text),
    'sessions.importEnd': async (i) => uploads.end(i.uploadId),
    // the turn runs on; its `done` never rejects, so nothing is left unhandled
    'chat.prompt': async (i) => {
      const text = await files.withAttachments(i.sessionId, i.text, i.attachments ?? []);
      return text.ok ? started(await svc.startTurn(i.sessionId, text.value)) : text;
    },
    'chat.replay': async (i) => {
      const dir = i.recording === 'sample' ? join(sampleDir, 'recording') : i.recording;
      const text = i.text === undefined ? {} : { text: i.text };
      const tour = i.tour === true ? { tour: true } : {};
      return started(await svc.startReplay(i.sessionId, dir, { mode: 'recorded', attended: true, ...text, ...tour }));
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
    'question.answer': async (i) => {
      const r = svc.answerQuestion(i.sessionId, i.partId, {
        ...(i.selected ? { selected: i.selected } : {}),
        ...(i.text !== undefined ? { text: i.text } : {}),
        ...(i.dismiss ? { dismiss: true } : {}),
      });
      return r.ok ? ok({ answered: true as const }) : r;
    },
    'loop.answer': async (i) => {
      const r = await svc.answerLoop(i.sessionId, i.partId, i.decision);
      return r.ok ? ok({ decision: r.value.decision, started: r.value.turn !== undefined }) : r;
    },
    'talk.get': async (i) =>
      svc.store.getSession(i.sessionId)
        ? ok(svc.getTalk(i.sessionId))
        : fail('invalid_input', `No session ${i.sessionId}.`, 'Pick a session from the list.'),
    'talk.set': async (i) =>
      svc.setTalk(i.sessionId, {
        ...(i.mode !== undefined ? { mode: i.mode } : {}),
        ...(i.provider !== undefined ? { provider: i.provider } : {}),
        ...(i.model !== undefined ? { model: i.model } : {}),
      }),
    'queue.send': async (i) => {
      const r = svc.send(i.sessionId, i.text, i.steer === true);
      if (!r.ok) return r;
      const { id, sessionId, text, time, steer, started } = r.value;
      return ok({ id, sessionId, text, time, steer, started });
    },
    'queue.edit': async (i) => {
      const r = svc.queued.edit(i.sessionId, i.id, {
        ...(i.text !== undefined ? { text: i.text } : {}),
        ...(i.steer !== undefined ? { steer: i.steer } : {}),
      });
      if (!r.ok) return r;
      const { id, sessionId, text, time, steer } = r.value;
      return ok({ id, sessionId, text, time, steer });
    },
    'queue.remove': async (i) => {
      const r = svc.queued.remove(i.sessionId, i.id);
      return r.ok ? ok({ removed: true as const }) : r;
    },
    'queue.resume': async (i) => ok({ resumed: svc.queued.resume(i.sessionId) }),
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
    'settings.get': async () => ok(await currentSettingsView(platform.secrets, dataDir)),
    'settings.save': (i) => saveSettingsForm(svc, platform.secrets, dataDir, i),
    'settings.reset': () => resetSettings(svc, platform.secrets, dataDir),
    'settings.test': (i) => testSettings(platform.secrets, i),
    'settings.windows': async (i) => ok(typedWindows(i.providers)),
    'trust.list': async () => ok(trustView(svc.trust)),
    'trust.set': (i) => setTrust(svc.trust, i),
    'mcp.status': (i) => mcpView(svc, i.projectId),
    'mcp.approve': (i) => approveProjectMcp(svc, i.projectId),
    'mcp.toggle': (i) => toggleMcp(svc, i),
    'progress.list': async () => ok(svc.progress.active()),
  };
  // Another window or the command line on this data folder: its stored changes reach this host's listeners too.
  const follower = followEventLog(join(dataDir, 'landfall.db'), (l) => svc.on(l));
  // settings.json edited by hand (or by another window) while this host runs: the Settings screen is told
  const settingsWatch = watchSettings(settingsFile(dataDir));
  const close = async (): Promise<void> => {
    settingsWatch.close();
    follower.close();
    forgetStoredKeys();
    await svc.close();
    await lsp?.shutdown();
  };
  const subscribe = (listener: (e: AnyEvent) => void): (() => void) => {
    const offs = [svc.on(listener), follower.on(listener), settingsWatch.on(listener)];
    return () => offs.forEach((off) => off());
  };
  return ok({ handlers, subscribe, close });
}

/**
 * The files a history move left as the user had them: every skipped file, with its conflict reason (changed after
 * the agent's step, or after the revert wrote it: fixtures/bugs/README.md B31); a skipped file without a conflict
 * is one the snapshot store could not write (`not_written`). A forced move still lists its conflicts but skips
 * none, so it keeps nothing.
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
