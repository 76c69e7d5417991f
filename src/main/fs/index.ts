/** The file layer (DESIGN §3): workspace boundary, per-file locks, atomic writes, encodings, observed versions. */
export { resolveInRoot, realRoot, isInside, type ResolvedPath } from './workspace';
export { withFileLock, withFileLocks, isLocked } from './file-lock';
export { writeFileAtomic, writeTempBeside, syncDir, TEMP_MARKER } from './atomic-write';
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
export { commitDiff, MAX_PATCH_CHARS } from './file-diff';
