/**
 * Paths that exist, offered when a tool is given one that does not (`file_not_found`, apply_patch's
 * `missing_file`): the model mistyped a folder, a case, an extension, or remembered a file in the wrong place.
 *
 * Candidates come from one ignore-aware walk of the project (walk.ts: symlinks never followed, so nothing outside
 * the root is ever named; at most WALK_LIMIT entries are looked at) and are ranked:
 *   0. the same path in another case (`Src/Greet.js` → `src/greet.js`);
 *   1. the same name in another folder, the folder nearest to the one asked for first;
 *   2. a similar name in the asked folder (same stem with another extension, or a few letters apart).
 * Ties go by path. At most MAX_HINTS are answered, root-relative with `/`. A file the read policy withholds from
 * listings (ctx.reveal, bulk: a deny rule, or an ask rule nobody answered) is never offered — its name alone would
 * say that it exists.
 */
import path from 'node:path';
import { distance } from 'fastest-levenshtein';
import { fail, type LandfallError } from '../../shared/errors';
import { realRoot } from '../fs/workspace';
import type { ToolContext } from './types';
import { walk } from './walk';

/** At most this many paths are offered. */
export const MAX_HINTS = 5;
/** The walk stops after this many entries (a hint is a courtesy; a huge tree must not make a miss slow). */
export const WALK_LIMIT = 50_000;

interface Ranked {
  rel: string;
  rank: number;
  score: number;
}

const lower = (s: string): string => s.toLowerCase();
const dirOf = (rel: string): string => path.posix.dirname(rel);
const stemOf = (name: string): string => name.replace(/\.[^.]*$/, '');

/** How far apart two folder paths are: segments not shared from the start, counted on both sides. */
function folderDistance(a: string, b: string): number {
  const x = a === '.' ? [] : a.split('/');
  const y = b === '.' ? [] : b.split('/');
  let common = 0;
  while (common < x.length && common < y.length && lower(x[common] ?? '') === lower(y[common] ?? '')) common++;
  return x.length - common + (y.length - common);
}

/** True when `name` is a likely misspelling of `wanted` (both lower case): same stem, or a few edits apart. */
function similarName(name: string, wanted: string): number | undefined {
  if (name === wanted) return undefined;
  if (stemOf(name) === stemOf(wanted) && stemOf(wanted) !== '') return 0;
  const d = distance(name, wanted);
  return d <= Math.max(1, Math.floor(wanted.length / 4)) ? d : undefined;
}

/** The rank of an existing `rel` as a hint for the missing `wanted`, or undefined when it is no hint. */
function rankOf(rel: string, wanted: string): Ranked | undefined {
  if (rel === wanted) return undefined;
  if (lower(rel) === lower(wanted)) return { rel, rank: 0, score: 0 };
  const name = lower(path.posix.basename(rel));
  const wantedName = lower(path.posix.basename(wanted));
  if (name === wantedName) return { rel, rank: 1, score: folderDistance(dirOf(rel), dirOf(wanted)) };
  if (lower(dirOf(rel)) !== lower(dirOf(wanted))) return undefined;
  const d = similarName(name, wantedName);
  return d === undefined ? undefined : { rel, rank: 2, score: d };
}

/**
 * Existing paths near `wanted` (root-relative, `/`-separated, absent from disk), of the kind asked for: files for
 * read / edit / multiedit / apply_patch, folders for list / grep / glob. Never throws: an unreadable tree gives
 * fewer hints. Answers at most MAX_HINTS paths, best first (module docstring).
 */
export async function nearbyPaths(ctx: ToolContext, wanted: string, kind: 'file' | 'folder'): Promise<string[]> {
  if (wanted === '' || wanted.startsWith('../') || wanted === '..' || path.posix.isAbsolute(wanted)) return [];
  const found: Ranked[] = [];
  try {
    const root = await realRoot(ctx.root);
    let seen = 0;
    for await (const e of walk(root, root)) {
      if (++seen > WALK_LIMIT) break;
      if (e.kind !== (kind === 'file' ? 'file' : 'dir')) continue;
      const r = rankOf(e.rel, wanted);
      if (r && ctx.reveal?.withheld(e.rel, true) === undefined) found.push(r);
    }
  } catch {
    // the root vanished or a folder could not be read: whatever was found so far is still a fair hint
  }
  found.sort((a, b) => a.rank - b.rank || a.score - b.score || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return found.slice(0, MAX_HINTS).map((r) => r.rel);
}

/**
 * The hint of a not-found error: `Did you mean: a, b? ` before the tool's own advice when there are nearby paths,
 * else the advice alone.
 */
export function notFoundHint(nearby: string[], advice: string): string {
  return nearby.length === 0 ? advice : `Did you mean: ${nearby.join(', ')}? ${advice}`;
}

/**
 * The `file_not_found` error of a tool given `rel` (root-relative) that does not exist: `message` as given, the
 * hint with nearby paths (nearbyPaths) before `advice`, and `data: { path, nearby }`.
 */
export async function notFoundError(
  ctx: ToolContext,
  rel: string,
  kind: 'file' | 'folder',
  message: string,
  advice: string,
): Promise<LandfallError> {
  const nearby = await nearbyPaths(ctx, rel, kind);
  return fail('file_not_found', message, notFoundHint(nearby, advice), { path: rel, nearby }).error;
}
