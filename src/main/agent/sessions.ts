/**
 * Projects and sessions as the service answers them: opening a project folder (by its real path, so two names of
 * one folder are one project), creating, renaming and deleting sessions (refused while a turn of theirs runs:
 * the turn writes the session's rows), and a session's whole view — its messages with their parts, whether a turn
 * runs, and the permission questions its gate still waits on.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { SessionDetail } from '../../shared/contract-schemas';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Project, Session } from '../../shared/model';
import { realRoot } from '../fs/workspace';
import type { GcReport } from '../snapshot/types';
import { runsElsewhere } from '../session/running';
import { searchSessions as search } from '../session/search';
import type { SessionSearchHit } from '../../shared/search-schemas';
import { DEFAULT_TITLE } from './defaults';
import type { ServiceCore } from './service-core';

const noSession = (id: string): Result<never> =>
  fail('invalid_input', `No session ${id}.`, 'Pick a session from the list.');
const noProject = (id: string): Result<never> => fail('invalid_input', `No project ${id}.`, 'Open the project first.');

/**
 * Open (register) a project folder. Errors: `file_not_found` when it does not exist, `not_a_directory` when it is
 * a file (nothing is registered, so Recent stays as it was).
 */
export async function openProject(core: ServiceCore, root: string): Promise<Result<Project>> {
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
  return ok(core.store.upsertProject(real, path.basename(real)));
}

/**
 * The project's sessions whose title or message text holds every word of `query` (session/search.ts), title
 * matches first, each with its matching messages and snippets. Error `invalid_input` for an unknown project.
 */
export function searchSessions(core: ServiceCore, projectId: string, query: string): Result<SessionSearchHit[]> {
  if (!core.store.getProject(projectId)) return noProject(projectId);
  return ok(search(core.store.db, projectId, core.store.listSessions(projectId), query));
}

/** New session in a project. Error `invalid_input` for an unknown project. */
export function createSession(core: ServiceCore, projectId: string, title = DEFAULT_TITLE): Result<Session> {
  if (!core.store.getProject(projectId)) return noProject(projectId);
  return ok(core.store.createSession(projectId, title));
}

/** Rename a session. Errors: `invalid_input` for an unknown session; `busy` while a turn runs. */
export function renameSession(core: ServiceCore, id: string, title: string): Result<Session> {
  if (!core.store.getSession(id)) return noSession(id);
  if (core.running.has(id) || runsElsewhere(core.store.db, id))
    return fail('busy', 'The session is running a turn.', 'Wait for the turn to end (or stop it), then rename.');
  return ok(core.store.updateSession(id, { title }));
}

/** Delete a session (refused `busy` while it runs). Its files stay as they are; its grants are forgotten. */
export function deleteSession(core: ServiceCore, id: string): Result<void> {
  if (core.running.has(id) || runsElsewhere(core.store.db, id))
    return fail('busy', 'The session is running a turn.', 'Stop it first.');
  core.store.deleteSession(id);
  core.gate.forget(id);
  core.observed.forget(id);
  return ok(undefined);
}

/** A session with its messages and parts, whether it runs, and its questions waiting for an answer. */
export function getSession(core: ServiceCore, id: string): Result<SessionDetail> {
  const session = core.store.getSession(id);
  if (!session) return noSession(id);
  return ok({
    session,
    messages: core.store.messages(id),
    busy: core.running.has(id),
    asks: core.gate.pending(id),
  });
}

/**
 * Prune the project's snapshot store: objects unreachable from every tree its sessions reference and older than
 * the retention are removed. Error `invalid_input` for an unknown project.
 */
export async function gcSnapshots(core: ServiceCore, projectId: string): Promise<Result<GcReport>> {
  if (!core.store.getProject(projectId)) return noProject(projectId);
  const rt = await core.runtimes.forProject(projectId);
  return ok(await rt.gc(core.store.referencedTrees(projectId)));
}
