/** The observed-version stamp of a file's bytes (DESIGN §3): size, mtime and sha256 of the raw bytes. */
import { createHash } from 'node:crypto';
import type { FileStamp } from '../tools/types';

/** Stamp of `bytes` read from a file with stat `{ size, mtimeMs }` (bytes; ms since epoch; sha256 hex). */
export function stampOf(bytes: Uint8Array, stat: { size: number; mtimeMs: number }): FileStamp {
  return { size: stat.size, mtimeMs: stat.mtimeMs, hash: createHash('sha256').update(bytes).digest('hex') };
}
