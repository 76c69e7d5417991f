/**
 * apply_patch's disk side and tool (DESIGN §3): a patch parsed and planned by the pure engine
 * (src/main/engine/patch), then — inside the files' locks — read, checked for freshness, approved, and landed as one
 * all-or-nothing transaction (src/main/fs/transaction.ts), with a report of what landed.
 */
export { applyPatch, type ApplyPatchOptions } from './apply';
export { applyPatchTool, type ApplyPatchInput } from './apply-patch';
export type { PatchResult, PatchFileResult } from './report';
