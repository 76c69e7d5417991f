/**
 * History moves of a session — revert, unrevert, undo, redo (DESIGN §5; the moves themselves are the session
 * core's, src/main/session/revert.ts). Here: one move at a time per session (a second is refused `busy`), the
 * session's snapshot store found for it, a store failure (e.g. a tree hash the store does not hold) turned into
 * data, and what moving back could not put back (files the agent wrote inside a repository's own `.git` folder,
 * permission/git-dir-history.ts) added to revert and undo results. Each move is one reported operation
 * (progress.ts `around`: its walk, its per-file plan, the files it writes), a preview as `preview`.
 */
import { fail, isFailure, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import * as history from '../session/revert';
import { runsElsewhere } from '../session/running';
import type { RevertOptions, RevertResult, UndoResult } from '../session/revert-types';
import { unrestorableGitWrites } from './permission/git-dir-history';
import type { ServiceCore } from './service-core';
import type { ProgressOperation } from '../../shared/progress-schemas';

type Boundary = { messageId: string; partId?: string };
type Move = Extract<ProgressOperation, 'revert' | 'unrevert' | 'undo' | 'redo'>;

/** Run one history move with the session's deps (module docstring). */
async function withHistory<T>(
  core: ServiceCore,
  sessionId: string,
  move: Move,
  options: RevertOptions,
  op: (deps: history.RevertDeps) => Promise<Result<T>>,
): Promise<Result<T>> {
  if (core.reverting.has(sessionId))
    return fail('busy', 'Another revert of this session is in progress.', 'Wait for it to finish.');
  core.reverting.add(sessionId);
  try {
    const found = await core.runtimes.forSession(sessionId);
    if (!found.ok) return found;
    const scope = { projectId: found.value.session.projectId, sessionId };
    return await core.progress.around(options.preview ? 'preview' : move, scope, (run) =>
      op({
        store: core.store,
        snapshot: found.value.rt.snapshot,
        busy: (id) => core.running.has(id) || runsElsewhere(core.store.db, id),
        intents: core.intents,
        planned: (done, total) => {
          const count = { done, total, unit: 'files' as const };
          if (done === 1) run.phase('plan', count);
          else run.update(count);
        },
      }),
    );
  } catch (e) {
    if (isFailure(e)) return e.toFail();
    throw e;
  } finally {
    core.reverting.delete(sessionId);
  }
}

/** Adds `unrestorable` to a revert or undo result: what moving back to `boundary` left as the agent left it. */
async function sayUnrestorable<T extends RevertResult>(
  core: ServiceCore,
  sessionId: string,
  r: Result<T>,
  boundary: Boundary | undefined = r.ok ? r.value.session.revert : undefined,
): Promise<Result<T>> {
  if (!r.ok) return r;
  return ok({ ...r.value, unrestorable: await unrestorableGitWrites(core.store.messages(sessionId), boundary) });
}

/** Revert to before a message (or a part of it); errors and conflicts as session/revert.ts `revertTo`. */
export async function revert(
  core: ServiceCore,
  sessionId: string,
  boundary: Boundary,
  options: RevertOptions,
): Promise<Result<RevertResult>> {
  const r = await withHistory(core, sessionId, 'revert', options, (d) =>
    history.revertTo(d, sessionId, boundary, options),
  );
  return sayUnrestorable(core, sessionId, r, boundary);
}

/** Clear the revert boundary, putting back the files it covered (session/revert.ts `unrevert`). */
export function unrevert(core: ServiceCore, sessionId: string): Promise<Result<RevertResult>> {
  return withHistory(core, sessionId, 'unrevert', {}, (d) => history.unrevert(d, sessionId));
}

/** Revert to the last user message before the boundary and give back its text (session/revert.ts `undo`). */
export async function undo(core: ServiceCore, sessionId: string, options: RevertOptions): Promise<Result<UndoResult>> {
  return sayUnrestorable(
    core,
    sessionId,
    await withHistory(core, sessionId, 'undo', options, (d) => history.undo(d, sessionId, options)),
  );
}

/** Move the boundary forward one turn, unreverting at the last (session/revert.ts `redo`). */
export function redo(core: ServiceCore, sessionId: string, options: RevertOptions): Promise<Result<RevertResult>> {
  return withHistory(core, sessionId, 'redo', options, (d) => history.redo(d, sessionId, options));
}
