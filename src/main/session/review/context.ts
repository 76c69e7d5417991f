/**
 * What review needs from the rest of main, as plain interfaces (explicit context, DESIGN §10): the project root
 * and snapshot store of a session, its messages, the event log, and whether a turn is running.
 */
import type { Result } from '../../../shared/errors';
import type { FileDiff } from '../../../shared/model';
import type { MessageWithParts, RevertState } from '../../../shared/model';
import type { Intents } from '../intents';
import type { ReviewLog } from './log';

/** The snapshot store calls review makes (src/main/snapshot). Paths are root-relative with '/' separators. */
export interface ReviewSnapshots {
  /** Stage the work tree; its tree hash. */
  track(): Promise<string>;
  /** Files that differ between two trees (status, rename source). */
  diffFull(from: string, to: string): Promise<FileDiff[]>;
  /** A file's bytes in a tree; null or undefined when the tree has no such file. */
  readFile(hash: string, path: string): Promise<Uint8Array | null | undefined>;
}

/** Everything a ReviewService is given. */
export interface ReviewDeps {
  /** Real project root and snapshot store of a session; `invalid_input` for an unknown session. */
  project(
    sessionId: string,
  ):
    | Result<{ root: string; snapshots: ReviewSnapshots }>
    | Promise<Result<{ root: string; snapshots: ReviewSnapshots }>>;
  /** The session's messages with their parts, in order. */
  messages(sessionId: string): MessageWithParts[];
  /**
   * The session's revert in force (`session.revert`, session/revert.ts), undefined when it is not reverted: review
   * marks what it took off disk (review/reverted.ts). Absent: never reverted.
   */
  revert?(sessionId: string): RevertState | undefined;
  log: ReviewLog;
  /** True while a turn runs (decisions that write are refused then: `busy`). */
  isBusy?(sessionId: string): boolean;
  /** Journal folder of the decisions' writes (the app's data folder; src/main/fs/journal.ts). */
  journalDir?: string;
  /** Pairs each decision's write with its event, so a kill cannot split them (session/intents.ts). */
  intents?: Intents;
  /** Clock (ms since the epoch); Date.now by default. */
  now?(): number;
}
