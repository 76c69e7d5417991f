/**
 * The apply_patch tool (DESIGN §3, issue 3): a multi-file patch in the codex/opencode envelope, landed all or
 * nothing by the patch engine (src/main/patch). Around the engine:
 *   - permission: one ask (inside the files' locks, after planning) whose preview holds every file's diff;
 *   - observed versions: an Update or Delete of a file the session never read is `not_observed`, of a file that
 *     changed on disk since the session saw it `stale`. An Add needs no read — its target must not exist (the
 *     engine refuses `exists`), so there is no version the session could have missed; the same holds for a Move
 *     destination. After the patch the session has observed what it wrote; deleted files are forgotten;
 *   - diagnostics: the language servers are asked about every written file, still inside the locks, and their
 *     errors are appended to the output (B43).
 * A failure says that no file was changed — which is true by construction (the engine's transaction), unless
 * even the rollback failed, and then the error names the files that differ.
 */
import { z } from 'zod';
import { fail, ok, type LandfallError } from '../../shared/errors';
import { applyPatch, type PatchFileResult } from '../patch';
import { diagnosticsAfterWrite, withDiagnostics } from './file-access';
import { toolFailure, type DiagnosticsReport, type ToolContext, type ToolDefinition, type ToolOutcome } from './types';

const applyPatchInput = z.object({
  patchText: z.string().describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
});
export type ApplyPatchInput = z.infer<typeof applyPatchInput>;

/** The permission ask: every file the patch touches (sources and move destinations), with every file's diff. */
async function approve(ctx: ToolContext, files: PatchFileResult[]) {
  if (!ctx.ask) return ok(undefined);
  const patterns = files.flatMap((f) => (f.movePath ? [f.path, f.movePath] : [f.path]));
  const answer = await ctx.ask({
    tool: 'apply_patch',
    permission: 'edit',
    patterns,
    title: files.length === 1 ? `apply_patch ${patterns.join(' → ')}` : `apply_patch ${files.length} files`,
    preview: files.map((f) => f.change),
  });
  if (answer.allow) return ok(undefined);
  return fail(
    'permission_denied',
    `The user did not allow apply_patch on ${patterns.join(', ')}.`,
    answer.reason
      ? `The user said: ${answer.reason}`
      : 'Ask the user how to proceed instead of retrying the same patch.',
    { paths: patterns },
  );
}

function refused(error: LandfallError): ToolOutcome {
  const failure = toolFailure(error);
  const notRestored = error.data?.notRestored;
  const untouched = !Array.isArray(notRestored) || notRestored.length === 0;
  return untouched ? { ...failure, output: `${failure.output}\nNo file was changed.` } : failure;
}

/** Apply `input.patchText` in `ctx.root`; see the module docstring. */
async function executeApplyPatch(input: ApplyPatchInput, ctx: ToolContext): Promise<ToolOutcome> {
  let diagnosticsText = '';
  let diagnostics: DiagnosticsReport | undefined;
  const result = await applyPatch(input.patchText, {
    root: ctx.root,
    ctx,
    approve: (files) => approve(ctx, files),
    onLanded: async (_landed, written) => {
      if (written.length === 0) return;
      const diag = await diagnosticsAfterWrite(ctx, written, true);
      diagnosticsText = diag.text;
      diagnostics = diag.report;
    },
  });
  if (!result.ok) return refused(result.error);
  const { files, landed, summary } = result.value;
  return {
    ok: true,
    title:
      files.length === 1 ? `apply_patch ${files[0]?.movePath ?? files[0]?.path}` : `apply_patch ${files.length} files`,
    output: withDiagnostics(summary, diagnosticsText),
    metadata: { files, diffs: files.map((f) => f.change), landed, diagnostics: diagnostics?.diagnostics },
  };
}

export const applyPatchTool: ToolDefinition<ApplyPatchInput> = {
  name: 'apply_patch',
  description: [
    'Change several files in one all-or-nothing call. The patch format:',
    '*** Begin Patch',
    '*** Add File: path/new.txt        (then every line of the new file prefixed with +)',
    '*** Delete File: path/old.txt',
    '*** Update File: path/file.py     (optionally followed by *** Move to: new/path.py)',
    '@@ class Foo:                     (optional anchors, stacked: class, then method)',
    ' context line (space prefix, exact text of the file)',
    '-removed line',
    '+added line',
    '*** End of File                   (optional: the hunk ends at the end of the file)',
    '*** End Patch',
    'Paths are relative to the project root. Read a file before updating or deleting it. Give each hunk enough',
    'context (usually 3 lines) to match exactly one place; hunks of one file must follow the file order. Add never',
    'overwrites an existing file. If anything does not apply, nothing is changed and the error says why.',
  ].join('\n'),
  input: applyPatchInput,
  execute: executeApplyPatch,
};
