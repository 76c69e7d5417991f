/**
 * For the per-pass tests beside each pass: where seek.ts places a block of patch lines in a file's lines, and at
 * which pass of the ladder. Lines are texts without terminators.
 */
import { LineIndex, seekBlock, type BlockHit } from '../seek';

/** seekBlock of `block` in `file` from line 0 (not bound to the end of the file). */
export function seek(file: readonly string[], block: readonly string[]): BlockHit {
  return seekBlock(new LineIndex(file, block), block, 0, false);
}

/** `pass@line` (0-based start) where the block lands, `ambiguous@…`, or `none`. */
export function where(file: readonly string[], block: readonly string[]): string {
  const hit = seek(file, block);
  if (hit.kind === 'found') return `${hit.pass}@${hit.start}`;
  return hit.kind === 'ambiguous' ? `ambiguous:${hit.pass}@${hit.starts.join(',')}` : 'none';
}
