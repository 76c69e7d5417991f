/**
 * The one rule for every tool output before it is stored and sent (DESIGN §11): over 2,000 lines or 50 KB it
 * becomes head + tail at line boundaries with exact counts and the path of a file holding the whole output
 * (src/main/tools/output-cap.ts, output-cap-file.ts). On top of the byte and line caps the preview is held to
 * PREVIEW_TOKENS estimated tokens, so a 2 MB log reaches the model as a few thousand tokens whatever its bytes
 * look like (dense numbers or CJK text tokenise 2–4× worse than English).
 *
 * The read tool pages itself under the same caps (2,000 lines, 50 KB, an offset to continue from, which serves a
 * file better than head + tail) and says so with `metadata.truncated`; an outcome that carries that flag is left
 * as it is, so reading a saved output never saves it again.
 */
import type { ToolContext, ToolOutcome } from '../../tools/types';
import { capOutput, outputDir } from '../../tools/output-cap-file';
import { estimateTokens } from './tokens';

/** Estimated tokens a cut output's preview may take (head + note + tail). */
export const PREVIEW_TOKENS = 5_000;

/** How much to shrink a preview over PREVIEW_TOKENS (a ratio < 1), or undefined when it fits. */
function tokenBudget(preview: string): number | undefined {
  const tokens = estimateTokens(preview);
  return tokens <= PREVIEW_TOKENS ? undefined : (PREVIEW_TOKENS / tokens) * 0.95;
}

/**
 * `outcome` with its model-facing `output` capped (module docstring); a cut adds `metadata.fullOutput` =
 * { file, totalBytes, totalLines, omittedBytes, omittedLines }. A failed save of the whole output keeps the
 * preview and says in the note that the rest could not be saved (nothing else is lost: the tool already ran).
 */
export async function capToolOutcome(tool: string, outcome: ToolOutcome, ctx: Pick<ToolContext, 'scratchDir'>) {
  if (outcome.ok && outcome.metadata.truncated !== undefined) return outcome;
  const capped = await capOutput(outcome.output, { dir: outputDir(ctx.scratchDir), tool, tooLong: tokenBudget });
  if (capped.cut === undefined) return outcome;
  const { file, totalBytes, totalLines, omittedBytes, omittedLines } = capped.cut;
  const fullOutput = { file, totalBytes, totalLines, omittedBytes, omittedLines };
  if (outcome.ok) return { ...outcome, output: capped.text, metadata: { ...outcome.metadata, fullOutput } };
  return {
    ...outcome,
    output: capped.text,
    error: { ...outcome.error, data: { ...(outcome.error.data ?? {}), fullOutput } },
  };
}
