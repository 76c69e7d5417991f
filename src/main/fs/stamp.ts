/** The observed-version stamp of a file's bytes (DESIGN §3): size, mtime and sha256 of the raw bytes. */
import { createHash } from 'node:crypto';

/**
 * What a session last saw of a file (the read-before-edit memory, observed.ts): size in bytes, mtime in ms since
 * the epoch (informational), sha256 hex of the raw bytes (what freshness is judged on).
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** Stamp of `bytes` read from a file with stat `{ size, mtimeMs }` (bytes; ms since epoch; sha256 hex). */
export function stampOf(bytes: Uint8Array, stat: { size: number; mtimeMs: number }): FileStamp {
  return { size: stat.size, mtimeMs: stat.mtimeMs, hash: createHash('sha256').update(bytes).digest('hex') };
}
