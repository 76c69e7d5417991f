/**
 * Builds the ReviewService the AgentService exposes: binds review to the service's session store (messages,
 * the event log in the same database), its per-project runtimes (root + snapshot store), and its busy flags.
 * Lives here so the AgentService needs one line to offer review.
 */
import { ok, type Result } from '../../../shared/errors';
import type { SnapshotPort } from '../snapshot-port';
import type { Intents } from '../intents';
import type { SessionStore } from '../store';
import { ReviewService } from '../review';
import type { ReviewSnapshots } from './context';
import { ReviewLog } from './log';

/** The snapshot port as review needs it: every `Snapshots` has the calls review makes (track, diffFull, readFile). */
export function reviewSnapshots(port: SnapshotPort): Result<ReviewSnapshots> {
  return ok(port);
}

/**
 * The ReviewService over an AgentService's parts. `runtime(sessionId)` answers the session's project root and
 * snapshot port (`invalid_input` for an unknown session); `isBusy(sessionId)` is true while a turn runs;
 * `journalDir` is where the decisions' writes are journaled (the service's `<dataDir>/journal`); `intents` pairs
 * each write with its event (session/intents.ts).
 */
export function createReviewService(
  store: SessionStore,
  runtime: (sessionId: string) => Promise<Result<{ root: string; snapshot: SnapshotPort }>>,
  isBusy: (sessionId: string) => boolean,
  journalDir?: string,
  intents?: Intents,
): ReviewService {
  return new ReviewService({
    project: async (sessionId) => {
      const rt = await runtime(sessionId);
      if (!rt.ok) return rt;
      const snapshots = reviewSnapshots(rt.value.snapshot);
      return snapshots.ok ? ok({ root: rt.value.root, snapshots: snapshots.value }) : snapshots;
    },
    messages: (sessionId) => store.messages(sessionId),
    revert: (sessionId) => store.getSession(sessionId)?.revert,
    log: new ReviewLog(store.db),
    isBusy,
    ...(journalDir === undefined ? {} : { journalDir }),
    ...(intents === undefined ? {} : { intents }),
  });
}
