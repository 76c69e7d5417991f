/**
 * Rung 7, trimmed-boundary: oldString carries extra whitespace or blank lines around the text (the model copied a
 * blank line or a trailing space that is not there). The trimmed core is looked up exactly; the candidate carries
 * the stripped boundary so the loop strips the same boundary from newString when newString has it (conformance
 * case blank-lines-around-old: the file's own blank lines stay untouched).
 */
import type { Replacer } from '../types';
import { exactCandidates } from './shared';

export const trimmedBoundary: Replacer = {
  name: 'trimmed-boundary',
  kind: 'cosmetic',
  find(ctx) {
    const core = ctx.old.trim();
    if (core.length === 0 || core === ctx.old) return [];
    const leading = ctx.old.slice(0, ctx.old.indexOf(core));
    const trailing = ctx.old.slice(leading.length + core.length);
    return exactCandidates(ctx, core, 'trimmed-boundary', [{ kind: 'boundary', leading, trailing }]);
  },
};
