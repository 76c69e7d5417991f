/**
 * apply_patch's engine (DESIGN §3, §10; issue 3): the codex/opencode patch envelope parsed strictly, hunks located
 * on a forward cursor with a uniqueness gate, every file's new text planned before anything is written, and the
 * plan landed as one all-or-nothing transaction.
 */
export { parsePatch } from './parse';
export { planPatch, updateText } from './plan';
export { applyPatch, planFromText, type ApplyPatchOptions } from './apply';
export type { PatchResult, PatchFileResult } from './report';
export type { ParsedPatch, PatchOperation, PatchHunk, HunkLine, PatchPlan, PlannedFile, ChangeKind } from './types';
