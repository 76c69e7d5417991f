/**
 * Rung 9, multi-occurrence: every exact occurrence of oldString, the rung opencode uses to serve replaceAll.
 * In Landfall the simple rung already yields every occurrence and the loop serves replaceAll for every rung, so
 * this rung finds nothing new; it stays so the ladder keeps opencode's shape and order.
 */
import type { Replacer } from '../types';
import { exactCandidates } from './shared';

export const multiOccurrence: Replacer = {
  name: 'multi-occurrence',
  kind: 'exact',
  find: (ctx) => exactCandidates(ctx, ctx.old, 'multi-occurrence'),
};
