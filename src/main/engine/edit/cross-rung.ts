/**
 * Uniqueness across rungs, for tolerant landings (DESIGN §2 uniqueness gate, judged on places, not per rung).
 *
 * The ladder stops at the first rung with a fit, so judged per rung a place found at a whitespace rung would win
 * although a later cosmetic rung (quotes, dashes, spaces) fits another line — two lines the model could equally
 * mean. So when the winning place was found by a tolerant rung, every later rung that counts with it runs too:
 * - a cosmetic winner counts with every cosmetic rung (a drifted look-alike found only by a similarity rung does
 *   not make a cosmetic fit ambiguous: the model's text matches one place up to presentation);
 * - a similarity winner counts with every cosmetic and similarity rung (a cosmetic fit elsewhere is at least as
 *   likely the place meant).
 * Their places pass the same gates (judge.ts). Places that overlap on the same lines are one place; more than
 * one distinct place is `ambiguous`, listing each place's lines and the rungs that found it. The search shares the edit's budget:
 * running out is `search_budget`, never a guess.
 */
import type { Result } from '../../../shared/errors';
import type { Candidate, RungKind, RungName, SearchContext } from './types';
import { LADDER } from './replacers/index';
import { judge, type Judged } from './judge';
import { distinctPlaces } from './search';
import { lineRange } from './landing';
import * as failures from './failures';

const COUNTS_WITH: Record<RungKind, readonly RungKind[]> = {
  exact: [],
  cosmetic: ['cosmetic'],
  similarity: ['cosmetic', 'similarity'],
};

interface Group {
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  rungs: RungName[];
}

/**
 * Distinct places: two fits are one place when their spans overlap and cover the same lines (a rung matching a
 * line whole and another matching inside it); windows that only share some lines are different places.
 */
function groupPlaces(ctx: SearchContext, places: readonly Judged[]): Group[] {
  const groups: Group[] = [];
  for (const j of places) {
    const start = j.candidate.start;
    const end = Math.max(j.replacement.end, start + 1);
    const lines = lineRange(ctx.text, start, end);
    const same = groups.find(
      (g) => g.startLine === lines.startLine && g.endLine === lines.endLine && start < g.end && g.start < end,
    );
    if (!same) groups.push({ start, end, ...lines, rungs: [j.candidate.rung] });
    else {
      same.start = Math.min(same.start, start);
      same.end = Math.max(same.end, end);
      if (!same.rungs.includes(j.candidate.rung)) same.rungs.push(j.candidate.rung);
    }
  }
  return groups.sort((a, b) => a.start - b.start);
}

/**
 * Check that `winner`, the one fit of rung `LADDER[at]`, is the only place the rungs counting with it find.
 * @returns undefined when it is; else `ambiguous` (every distinct place, 1-based lines) or `search_budget`.
 */
export function otherPlaces(
  ctx: SearchContext,
  at: number,
  winner: Judged,
  old: string,
  replacement: string,
): Result<never> | undefined {
  const counted = COUNTS_WITH[LADDER[at]?.kind ?? 'exact'];
  const all: Judged[] = [winner];
  const home = lineRange(
    ctx.text,
    winner.candidate.start,
    Math.max(winner.replacement.end, winner.candidate.start + 1),
  );
  // a place on the winner's own lines overlapping it is the winner's place: no need to judge it again
  const elsewhere = (c: Candidate): boolean => {
    if (c.start >= winner.replacement.end || winner.candidate.start >= Math.max(c.end, c.start + 1)) return true;
    const lines = lineRange(ctx.text, c.start, Math.max(c.end, c.start + 1));
    return lines.startLine !== home.startLine || lines.endLine !== home.endLine;
  };
  for (const rung of LADDER.slice(at + 1)) {
    if (!counted.includes(rung.kind)) continue;
    const found = distinctPlaces(rung.find(ctx)).filter(elsewhere);
    if (ctx.budget.exhausted) return failures.budgetHit(rung.name);
    if (found.length > 0) all.push(...judge(ctx, found, old, replacement, rung.kind).fits);
  }
  const groups = groupPlaces(ctx, all);
  if (groups.length < 2) return undefined;
  return failures.ambiguousAcross(
    groups.map((g) => ({ startLine: g.startLine, endLine: g.endLine, rungs: g.rungs })),
    winner.candidate.rung,
  );
}
