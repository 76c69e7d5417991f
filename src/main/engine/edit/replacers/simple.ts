/**
 * Rung 1, simple: oldString occurs byte-for-byte (after CRLF/BOM normalisation). Every occurrence is a candidate,
 * overlapping ones too, so the uniqueness gate sees every place. Exact always wins over looser rungs (fixtures/bugs/README.md B13, and the
 * conformance case where a straight apostrophe matches exactly next to a curly one).
 */
import type { Replacer } from '../types';
import { exactCandidates } from './shared';

export const simple: Replacer = {
  name: 'simple',
  kind: 'exact',
  find: (ctx) => exactCandidates(ctx, ctx.old, 'simple'),
};
