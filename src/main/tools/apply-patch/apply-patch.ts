/**
 * The apply_patch tool (DESIGN §3): a multi-file patch in the codex/opencode envelope, landed all or
 * nothing by the patch engine (src/main/engine/patch) and its disk side (apply.ts here). Around them:
 *   - permission: one ask (inside the files' locks, after planning) whose preview holds every file's diff;
 *   - observed versions: an Update or Delete of a file the session never read is `not_observed`, of a file that
 *     changed on disk since the session saw it `stale`. An Add needs no read — its target must not exist (the
 *     engine refuses `exists`), so there is no version the session could have missed; the same holds for a Move
 *     destination. After the patch the session has observed what it wrote; deleted files are forgotten;
 *   - diagnostics: the language servers are asked about every written file, still inside the locks, and their
 *     errors are appended to the output (fixtures/bugs/README.md B43).
 * A failure says that no file was changed — which is true by construction (the engine's transaction), unless
 * even the rollback failed, and then the error names the files that differ.
 */
import { z } from 'zod';
import { fail, ok, type LandfallError, type Result } from '../../../shared/errors';
import { resolveInRoot } from '../../fs/workspace';
import { parsePatch } from '../../engine/patch';
import { applyPatch } from './apply';
import type { PatchFileResult } from './report';
import { diagnosticsAfterWrite, withDiagnostics, withheldPath } from '../file-access';
import { gitControlled, gitDirTitle, inGitDir } from '../git-dir';
import type { DiagnosticsReport } from '../../lsp/hook';
import { toolFailure, type PermissionRequest, type ToolContext, type ToolDefinition, type ToolOutcome } from '../types';
import { toolProse } from '../prose';
import { nearbyPaths, notFoundHint } from '../path-hints';

const applyPatchInput = z.object({
  patchText: z.string().describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
});
export type ApplyPatchInput = z.infer<typeof applyPatchInput>;

/**
 * Before the engine reads anything: a patch naming a file the read policy withholds (by the name written or its
 * real path) is refused whole, so no context line, closest region or diff of it reaches the model.
 * Error `permission_denied` naming the path (never its content).
 */
async function refuseWithheld(ctx: ToolContext, patchText: string): Promise<Result<void>> {
  if (!ctx.reveal) return ok(undefined);
  const parsed = parsePatch(patchText);
  if (!parsed.ok) return ok(undefined); // the engine reports the parse error itself
  for (const op of parsed.value.operations) {
    for (const p of op.kind === 'update' && op.movePath ? [op.path, op.movePath] : [op.path]) {
      const resolved = await resolveInRoot(ctx.root, p);
      if (!resolved.ok) continue; // outside_root and friends: the engine refuses them with its own error
      const why = withheldPath(ctx, resolved.value, p);
      if (why)
        return fail(
          'permission_denied',
          `The patch touches ${p}, which may not be shown: ${why}. Nothing was read or changed.`,
          'Leave this file out of the patch, or ask the user to change it.',
          { path: p },
        );
    }
  }
  return ok(undefined);
}

/**
 * The permission asks, with every file's diff: `edit` for every file the patch touches (sources and move
 * destinations); then, when any of them lies in a repository's own git folder, a `git_dir` ask for those.
 */
async function approve(ctx: ToolContext, files: PatchFileResult[]): Promise<Result<void>> {
  if (!ctx.ask) return ok(undefined);
  const patterns = files.flatMap((f) => (f.movePath ? [f.path, f.movePath] : [f.path]));
  const title = files.length === 1 ? `apply_patch ${patterns.join(' → ')}` : `apply_patch ${files.length} files`;
  const preview = files.map((f) => f.change);
  const edit = await askPatch(ctx, { tool: 'apply_patch', permission: 'edit', patterns, title, preview });
  if (!edit.ok) return edit;
  const git: string[] = [];
  for (const p of patterns) {
    const real = await resolveInRoot(ctx.root, p); // a symlink into .git counts as what it leads to
    const rel = real.ok ? real.value.rel : p;
    if (inGitDir(p) || (await gitControlled(ctx.root, rel))) git.push(rel);
  }
  if (git.length === 0) return ok(undefined);
  return askPatch(ctx, {
    tool: 'apply_patch',
    permission: 'git_dir',
    patterns: git,
    title: gitDirTitle(`apply_patch ${git.join(', ')}`),
    preview,
  });
}

async function askPatch(ctx: ToolContext, request: PermissionRequest): Promise<Result<void>> {
  const patterns = request.patterns;
  const answer = ctx.ask ? await ctx.ask(request) : { allow: true as const };
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

/**
 * A `missing_file` refusal (Update or Delete of a file that is not there) with the existing files nearest to the
 * path it named (path-hints.ts) before its hint, and in `data.nearby`; any other error as it is.
 */
async function withNearby(ctx: ToolContext, error: LandfallError): Promise<LandfallError> {
  const file = error.data?.file;
  if (error.code !== 'missing_file' || typeof file !== 'string') return error;
  const resolved = await resolveInRoot(ctx.root, file);
  if (!resolved.ok || resolved.value.exists) return error;
  const nearby = await nearbyPaths(ctx, resolved.value.rel, 'file');
  return { ...error, hint: notFoundHint(nearby, error.hint), data: { ...error.data, nearby } };
}

/** Apply `input.patchText` in `ctx.root`; see the module docstring. */
async function executeApplyPatch(input: ApplyPatchInput, ctx: ToolContext): Promise<ToolOutcome> {
  const withheld = await refuseWithheld(ctx, input.patchText);
  if (!withheld.ok) return refused(withheld.error);
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
  if (!result.ok) return refused(await withNearby(ctx, result.error));
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
  description: toolProse(new URL('./apply-patch.md', import.meta.url)),
  input: applyPatchInput,
  execute: executeApplyPatch,
};
