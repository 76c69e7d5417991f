/**
 * apply_patch's pure engine (DESIGN §3, §10): the codex/opencode patch envelope parsed strictly (parse.ts), hunks
 * located on a forward cursor with a uniqueness gate (seek.ts, over the passes in passes/), and every file's new
 * text planned before anything is written (plan.ts). Strings in, Result out: no fs, no clock. The disk side — reads,
 * the transaction, the report — is src/main/tools/apply-patch/.
 */
export { parsePatch } from './parse';
export { planFromText, planPatch, updateLines, updateText, type UpdatedText } from './plan';
export type {
  AddedLine,
  ChangeKind,
  HunkLine,
  LineEdit,
  ParsedPatch,
  PatchHunk,
  PatchOperation,
  PatchPlan,
  PlannedFile,
  UpdateOperation,
} from './types';
