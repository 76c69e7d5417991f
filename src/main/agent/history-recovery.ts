/**
 * On start: the history moves (revert, unrevert, undo, redo) and review decisions a killed process left between
 * the write of its files and the write of its record (session/intents.ts). Runs in AgentService.open right after
 * the work-tree journals were recovered (fs/recovery.ts), so every interrupted transaction is already either
 * rolled back (outcome 'none') or committed and kept ('committed'). Per orphaned intent:
 *   - 'none': the files are as before the move and so is the record — the row goes;
 *   - 'committed': the files are as after the move — the record follows now: a session's boundary is set to the
 *     one the move wrote (only if it still holds the boundary the move started from: a later move of another
 *     process wins), its diff made from the snapshot store; a review event is appended with the tree after it
 *     (tracked now: the disk holds the decision's result). When the project cannot be opened (its folder is gone)
 *     a review intent is left for the next start;
 *   - 'open': a transaction recovery could not settle yet — left for the next start.
 * Kept journal folders whose record was written before the kill are released. Each settled move is one line on
 * stderr and in the returned list.
 */
import type { RevertState } from '../../shared/model';
import type { Intent } from '../session/intents';
import type { RevertIntentData } from '../session/revert';
import { ReviewLog, type DecidedEvent, type UndoneEvent } from '../session/review/log';
import type { ServiceCore } from './service-core';

function sameBoundary(a: RevertState | null | undefined, b: Omit<RevertState, 'diff'> | null): boolean {
  if (!a || !b) return !a && !b;
  return a.messageId === b.messageId && a.partId === b.partId && a.snapshot === b.snapshot;
}

/** The snapshot port of a session's project, or undefined when it cannot be opened. */
async function snapshotOf(core: ServiceCore, sessionId: string) {
  try {
    const found = await core.runtimes.forSession(sessionId);
    return found.ok ? found.value.rt.snapshot : undefined;
  } catch {
    return undefined;
  }
}

async function settleRevert(core: ServiceCore, intent: Intent): Promise<string> {
  const { store, intents } = core;
  const data = intent.data as RevertIntentData;
  const session = store.getSession(intent.sessionId);
  if (!session || !sameBoundary(session.revert, data.before)) {
    intents.complete(intent.id, () => undefined);
    return `a history move of session ${intent.sessionId} completed its files; a later move already recorded the session`;
  }
  let diff = '';
  if (data.after) diff = (await (await snapshotOf(core, intent.sessionId))?.diff(data.after.snapshot)) ?? '';
  intents.complete(
    intent.id,
    () => store.updateSession(intent.sessionId, { revert: data.after ? { ...data.after, diff } : null }),
    (fn) => store.tx(fn),
  );
  const what = data.after ? `reverted to before message ${data.after.messageId}` : 'not reverted';
  return `a history move of session ${intent.sessionId} was interrupted after its files were written: the session is now recorded as ${what}, as the files are`;
}

async function settleReview(core: ServiceCore, intent: Intent): Promise<string | undefined> {
  const snapshot = await snapshotOf(core, intent.sessionId);
  if (!snapshot) return undefined;
  const treeAfter = await snapshot.track();
  const event = { ...(intent.data as Omit<DecidedEvent | UndoneEvent, 'treeAfter'>), treeAfter } as
    DecidedEvent | UndoneEvent;
  const log = new ReviewLog(core.store.db);
  core.intents.complete(intent.id, () => log.append(event));
  return `a review ${intent.kind === 'review.decided' ? 'decision' : 'undo'} of session ${intent.sessionId} was interrupted after its files were written: it is now recorded`;
}

/** Settle every orphaned intent (module docstring); returns one line per settled move. Never throws for one move. */
export async function settleInterruptedMoves(core: ServiceCore): Promise<string[]> {
  const lines: string[] = [];
  for (const intent of core.intents.orphaned()) {
    try {
      const outcome = core.intents.outcome(intent.id);
      if (outcome === 'open') continue;
      if (outcome === 'none') {
        core.intents.remove(intent.id);
        continue;
      }
      const line = intent.kind === 'revert' ? await settleRevert(core, intent) : await settleReview(core, intent);
      if (line) lines.push(line);
    } catch (e) {
      lines.push(
        `an interrupted move of session ${intent.sessionId} could not be settled now: ${(e as Error).message}`,
      );
    }
  }
  core.intents.releaseStrays();
  for (const l of lines) process.stderr.write(`landfall: ${l}\n`);
  return lines;
}
