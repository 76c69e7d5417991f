/**
 * Public entry of the edit engine (pure: strings in, Result out; no fs, no clock, no Electron).
 *
 * - replace(content, oldString, newString, { replaceAll }) → Result<ReplaceSuccess>: lands one edit via the
 *   replacer ladder and its gates, or fails with not_found | ambiguous | no_change | too_broad | already_applied |
 *   search_budget. It returns failures as data and never throws for them.
 * - applyEdits(content, edits) → Result<ApplyEditsSuccess>: a batch resolved against the original text (fixtures/bugs/README.md B12);
 *   overlapping edits → conflict.
 * - describeLanding(success) → one line naming the rung and the line range, for the tool's output (fixtures/bugs/README.md B02).
 * - RUNG_NAMES: the ladder's rung names, strict to loose.
 */
export { replace, type ReplaceOptions } from './replace';
export { applyEdits, type EditSpec, type ApplyEditsSuccess } from './multi';
export { describeLanding } from './describe';
export { RUNG_NAMES, type RungName, type LandingRung } from './types';
export type { ReplaceSuccess, LandedSpan } from './landing';
export type { Closest } from './failures';
