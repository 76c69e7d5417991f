/**
 * Hunks of one file between two trees, with stable ids.
 *
 * A line hunk is one zero-context change region (see line-diff.ts): the finest unit a user can keep or reject,
 * so two changes separated by one untouched line are two decisions. Internally a hunk keeps its old and new lines
 * as latin1 strings with terminators (byte-exact, see lines.ts); the display lines are UTF-8, prefixed '-'/'+'.
 *
 * Stable id: sha256 over the scope (the `from..to` tree pair — a step's trees identify the step), the path, the
 * hunk's removed and added bytes, and its occurrence index among identical hunks of the file. Same trees → same
 * ids, so a decision recorded yesterday still names the same hunk after a reload.
 */
import { createHash } from 'node:crypto';
import { lineRegions } from './line-diff';
import { displayLine } from './lines';

/** A hunk with its exact lines (latin1, terminators kept); positions 0-based, half-open. */
export interface LineHunk {
  id: string;
  /** Range in the before text and in the after text (0-based line indexes). */
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
  oldLines: string[];
  newLines: string[];
}

/** Most display lines carried per hunk (the full text travels separately for the diff editor). */
export const MAX_DISPLAY_LINES = 400;
/** Longest display line (chars) before it is cut with '…' (long-line guard, fixtures/bugs/README.md B40). */
export const MAX_DISPLAY_LINE_CHARS = 2_000;

/** Stable hunk id (see module doc). 16 hex chars. */
export function hunkId(
  scope: string,
  path: string,
  oldLines: readonly string[],
  newLines: readonly string[],
  occurrence: number,
): string {
  const h = createHash('sha256');
  h.update(`${scope}\0${path}\0${occurrence}\0`);
  for (const l of oldLines) h.update(`-${l}\0`);
  h.update('\u0001');
  for (const l of newLines) h.update(`+${l}\0`);
  return h.digest('hex').slice(0, 16);
}

/** The line hunks turning `before` into `after` (both split by `splitLines`), ids derived from `scope` and `path`. */
export function lineHunks(
  scope: string,
  path: string,
  before: readonly string[],
  after: readonly string[],
): LineHunk[] {
  const seen = new Map<string, number>();
  return lineRegions(before, after).map((r) => {
    const oldLines = before.slice(r.aStart, r.aEnd);
    const newLines = after.slice(r.bStart, r.bEnd);
    const key = `${oldLines.join('')}\u0001${newLines.join('')}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return { id: hunkId(scope, path, oldLines, newLines, occurrence), ...r, oldLines, newLines };
  });
}

/** Display lines of a hunk ('-' old then '+' new), capped (see MAX_DISPLAY_LINES); `truncated` when cut. */
export function displayLines(
  oldLines: readonly string[],
  newLines: readonly string[],
): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  const push = (prefix: string, l: string): boolean => {
    if (lines.length >= MAX_DISPLAY_LINES) return false;
    const t = displayLine(l);
    lines.push(prefix + (t.length > MAX_DISPLAY_LINE_CHARS ? `${t.slice(0, MAX_DISPLAY_LINE_CHARS)}…` : t));
    return true;
  };
  for (const l of oldLines) if (!push('-', l)) return { lines, truncated: true };
  for (const l of newLines) if (!push('+', l)) return { lines, truncated: true };
  return { lines, truncated: false };
}
