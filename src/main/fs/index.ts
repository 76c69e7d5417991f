/**
 * The file layer (DESIGN §3): workspace boundary, per-file locks, the journaled work-tree transaction, checked and
 * bounded reads, encodings, observed versions.
 */
export { resolveInRoot, realRoot, isInside, type ResolvedPath } from './workspace';
export { withFileLock, withFileLocks, isLocked } from './file-lock';
export { writeFileAtomic, TEMP_MARKER } from './atomic-write';
export {
  runTransaction,
  runTransactionAsync,
  type TxStep,
  type TxReport,
  type TxOptions,
  type Put,
} from './transaction';
export { writeProject, transactionFailure } from './project-write';
export { recoverJournals, recoverWrites, describeRecovery, type RecoveryReport } from './recovery';
export { readChecked, readCheckedSync, readDirChecked, readBounded, readBoundedSync } from './read-checked';
export {
  readTextFile,
  decodeBytes,
  encodeText,
  lineEnding,
  toLineEnding,
  stripBomChar,
  DEFAULT_MAX_BYTES,
  type TextFile,
  type TextEncodingInfo,
} from './text-file';
export { ObservedVersions, checkFresh, recordWrite, stampOf } from './observed';
export type { FileStamp, ObservedScope, ObservedStore } from './observed';
export { commitDiff, MAX_PATCH_CHARS } from './file-diff';
