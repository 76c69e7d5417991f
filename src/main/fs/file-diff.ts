/**
 * The commit diff of one file change (DESIGN §3: preview, commit and step diffs are never confused): a unified
 * patch computed with jsdiff from the real text before and after, with added/removed line counts. A patch text
 * over 500,000 characters is dropped (counts kept) so a huge rewrite cannot bloat the session store. When the
 * line diff is too expensive (edit length over the cap) the counts fall back to "all old lines removed, all new
 * lines added" and the patch is dropped — an honest upper bound, never a wrong patch.
 */
import { structuredPatch, formatPatch } from 'diff';
import type { FileChange } from '../../shared/model';

/** Patch texts longer than this (characters) are dropped from FileChange. */
export const MAX_PATCH_CHARS = 500_000;
/** Bounds on the line diff's work: Myers costs O((N+M)·D), so a huge rewrite must not stall a tool call. */
const MAX_EDIT_LENGTH = 5_000;
const DIFF_TIMEOUT_MS = 1_500;

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * Unified diff of `before` → `after` for root-relative path `rel` ('/' separators). `before` '' means a new file.
 * Returns `{ file, patch?, additions, deletions }` (counts in lines). `limits` bound the diff's work (edit length
 * in lines, time in ms); past them the counts are the upper bound and the patch is dropped.
 */
export function commitDiff(
  rel: string,
  before: string,
  after: string,
  limits: { maxEditLength?: number; timeoutMs?: number } = {},
): FileChange {
  if (before === after) return { file: rel, patch: '', additions: 0, deletions: 0 };
  const sp = structuredPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, {
    context: 3,
    maxEditLength: limits.maxEditLength ?? MAX_EDIT_LENGTH,
    timeout: limits.timeoutMs ?? DIFF_TIMEOUT_MS,
  });
  if (!sp) return { file: rel, additions: lineCount(after), deletions: lineCount(before) };
  let additions = 0;
  let deletions = 0;
  for (const hunk of sp.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  }
  const patch = formatPatch(sp);
  return patch.length > MAX_PATCH_CHARS
    ? { file: rel, additions, deletions }
    : { file: rel, patch, additions, deletions };
}
