/**
 * The closest region of the file to an oldString that was not found, for the not_found error (line range and
 * similarity), so the model knows where to read again.
 *
 * Bounded on purpose (this runs on every miss, also on 20k-line files):
 * 1. Line votes: each of oldString's 24 longest non-blank lines that occurs (trimmed) in the file votes for the
 *    window start it implies; lines occurring more than 64 times (braces, `else:`) do not vote. The best-voted
 *    window wins. (Each voter costs one indexOf pass over the file, hence the cap.)
 * 2. With no votes: the longest oldString line is compared with the (at most 200) file lines holding its rarest
 *    word, pruning by length (a line too short or long to beat the best so far costs nothing).
 * Similarity is computed under its own small budget; when that runs out, the share of voting lines is reported.
 */
import type { Closest } from './failures';
import type { SearchContext } from './types';
import { Budget, similarity } from './similarity';

const MAX_VOTERS_PER_LINE = 64;
const MAX_VOTERS = 24;
const CLOSEST_BUDGET = 4_000_000;
const MAX_PROBE_LINES = 200;

function bestVotedStart(ctx: SearchContext, keys: readonly string[]): { start: number; votes: number } | undefined {
  const votes = new Map<number, number>();
  // each voter costs one scan of the file: the MAX_VOTERS longest lines vote (long lines are the distinctive ones)
  const voters = new Set(
    keys
      .map((key, k) => ({ key, k }))
      .filter((v) => v.key.length > 0)
      .sort((a, b) => b.key.length - a.key.length)
      .slice(0, MAX_VOTERS)
      .map((v) => v.k),
  );
  keys.forEach((key, k) => {
    if (!voters.has(k)) return;
    // stop counting a very common fragment early instead of indexing every '}' of the file
    const containing = ctx.text.linesContaining(key, 4 * MAX_VOTERS_PER_LINE + 1);
    if (containing.length > 4 * MAX_VOTERS_PER_LINE) return;
    const hits = containing.filter((i) => ctx.text.trimmedLine(i) === key);
    if (hits.length > MAX_VOTERS_PER_LINE) return;
    for (const i of hits) votes.set(i - k, (votes.get(i - k) ?? 0) + 1);
  });
  let best: { start: number; votes: number } | undefined;
  for (const [start, count] of votes) {
    if (!best || count > best.votes || (count === best.votes && start < best.start)) best = { start, votes: count };
  }
  return best;
}

/** Lines holding the rarest word (≥ 3 characters) of `probe` that occurs in the file at all. */
function linesSharingRareWord(ctx: SearchContext, probe: string): number[] {
  const words = [...new Set(probe.match(/[\p{L}\p{N}_]{3,}/gu) ?? [])];
  let best: number[] | undefined;
  for (const w of words) {
    const hits = ctx.text.linesContaining(w, MAX_PROBE_LINES + 1);
    if (hits.length > 0 && (!best || hits.length < best.length)) best = hits;
  }
  return (best ?? []).slice(0, MAX_PROBE_LINES);
}

function bestLineFor(ctx: SearchContext, probe: string, budget: Budget): { line: number; sim: number } | undefined {
  let best: { line: number; sim: number } | undefined;
  for (const i of linesSharingRareWord(ctx, probe)) {
    const s = similarity(probe, ctx.text.trimmedLine(i), best?.sim ?? 0, budget);
    if (budget.exhausted) break;
    if (!best || s > best.sim) best = { line: i, sim: s };
  }
  return best;
}

function windowSimilarity(
  ctx: SearchContext,
  keys: readonly string[],
  start: number,
  end: number,
  budget: Budget,
): number | undefined {
  const want = keys.filter((k) => k.length > 0).join('\n');
  const window = Array.from({ length: end - start + 1 }, (_, k) => ctx.text.trimmedLine(start + k));
  const have = window.filter((k) => k.length > 0).join('\n');
  const s = similarity(want, have, 0, budget);
  return budget.exhausted ? undefined : s;
}

/** The window (0-based first/last line) that oldString's own lines vote for, or undefined when none occurs. */
export function votedWindow(ctx: SearchContext): { first: number; last: number } | undefined {
  const keys = ctx.oldLines.map((l) => l.trim());
  const voted = bestVotedStart(ctx, keys);
  return voted ? { first: voted.start, last: voted.start + keys.length - 1 } : undefined;
}

/** The file region most like oldString, or undefined when nothing in the file resembles it. */
export function closestRegion(ctx: SearchContext): Closest | undefined {
  const keys = ctx.oldLines.map((l) => l.trim());
  const nonBlank = keys.filter((k) => k.length > 0).length;
  if (nonBlank === 0) return undefined;
  const last = ctx.text.lineCount - 1;
  const budget = new Budget(CLOSEST_BUDGET);
  const clamp = (start: number): Closest => {
    const s = Math.min(Math.max(0, start), last);
    const e = Math.min(last, s + keys.length - 1);
    return { startLine: s + 1, endLine: e + 1, similarity: 0 };
  };
  const voted = bestVotedStart(ctx, keys);
  if (voted) {
    const region = clamp(voted.start);
    const sim = windowSimilarity(ctx, keys, region.startLine - 1, region.endLine - 1, budget);
    return { ...region, similarity: sim ?? voted.votes / nonBlank };
  }
  const probe = keys.reduce((a, b) => (b.length > a.length ? b : a), '');
  const line = bestLineFor(ctx, probe, budget);
  if (!line) return undefined;
  const region = clamp(line.line - keys.indexOf(probe));
  const sim =
    keys.length === 1 ? line.sim : windowSimilarity(ctx, keys, region.startLine - 1, region.endLine - 1, budget);
  return { ...region, similarity: sim ?? line.sim };
}
