/**
 * The edit tool (DESIGN §2–3): `edit(filePath, oldString, newString, replaceAll?)`.
 * Inside the file's lock: resolve in the workspace → read and decode → observed-version check (BEFORE matching:
 * `not_observed`, `stale`) → land via the replacer ladder on the file's real text (edit-landing.ts) → encode back
 * in the file's own encoding (`unencodable` refused) → permission ask with the preview diff → atomic write →
 * commit diff and diagnostics. An empty oldString creates a new file and is refused on an existing one (fixtures/bugs/README.md B10).
 * The output names the rung and the line range, so a fuzzy landing is visible (fixtures/bugs/README.md B02).
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../shared/errors';
import { describeLanding } from '../engine/edit';
import { withFileLock } from '../fs/file-lock';
import type { ResolvedPath } from '../fs/workspace';
import { commitWrite } from './commit-write';
import { editExistingFile, type Landed } from './edit-file';
import { landEdit, type Landing } from './edit-landing';
import { failed, resolveToolPath, withDiagnostics } from './file-access';
import { newFileContent } from './new-file';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

/** The next step when an empty oldString names a file that exists (a long hint: its words are in a file). */
const EXISTS_HINT = toolProse(new URL('./edit.exists-hint.md', import.meta.url));

const editInput = z.object({
  filePath: z.string().min(1).describe('File to edit, relative to the project root.'),
  oldString: z
    .string()
    .describe(
      'The exact text to replace, copied from the file (without the "N: " line prefixes). Empty creates a new file.',
    ),
  newString: z.string().describe('The text to put in its place.'),
  replaceAll: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of oldString (default false: it must occur once).'),
});
export type EditInput = z.infer<typeof editInput>;

async function createFile(input: EditInput, ctx: ToolContext, r: ResolvedPath): Promise<ToolOutcome> {
  if (r.exists) {
    return failed(
      fail('exists', `${r.rel} already exists; an empty oldString only creates new files.`, EXISTS_HINT, {
        path: r.rel,
      }).error,
    );
  }
  const created = newFileContent(input.newString);
  if (!created.ok) return failed(created.error);
  const committed = await commitWrite(ctx, 'edit', r, { text: '', bytes: null }, created.value, false);
  if (!committed.ok) return failed(committed.error);
  const output = withDiagnostics(
    `Created ${r.rel} (${committed.value.diff.additions} lines).`,
    committed.value.diagnosticsText,
  );
  return {
    ok: true,
    title: `edit ${r.rel}`,
    output,
    metadata: { diff: committed.value.diff, created: true, diagnostics: committed.value.diagnostics?.diagnostics },
  };
}

function describe(rel: string, landing: Landing, staleNote: boolean): string {
  const note = staleNote
    ? `\nNote: ${rel} had changed on disk since you last read it; your oldString was found exactly once in the current content and the edit was applied there. Read the file again before further edits elsewhere.`
    : '';
  return `${rel}: ${describeLanding(landing)}${note}`;
}

function landOne(input: EditInput, rel: string): (text: string, stale: boolean) => Result<Landed> {
  return (text, stale) => {
    const landing = landEdit(text, input.oldString, input.newString, {
      replaceAll: input.replaceAll ?? false,
      stale,
      rel,
    });
    if (!landing.ok) return landing;
    const v = landing.value;
    return ok({
      content: v.content,
      summary: describe(rel, v, stale),
      metadata: {
        rung: v.rung,
        startLine: v.startLine,
        endLine: v.endLine,
        replacements: v.replacements,
        corrections: v.corrections,
        staleApplied: stale,
      },
    });
  };
}

/** Land one edit; see the module docstring. Never throws for expected failures. */
async function executeEdit(input: EditInput, ctx: ToolContext): Promise<ToolOutcome> {
  const resolved = await resolveToolPath(ctx, input.filePath);
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  return withFileLock(r.real, async () => {
    if (input.oldString === '') return createFile(input, ctx, r);
    if (!r.exists) {
      return failed(
        await notFoundError(
          ctx,
          r.rel,
          'file',
          `${r.rel} does not exist.`,
          'Check the path with glob; to create a new file use write, or edit with an empty oldString.',
        ),
      );
    }
    return editExistingFile(ctx, 'edit', r, landOne(input, r.rel));
  });
}

export const editTool: ToolDefinition<EditInput> = {
  name: 'edit',
  description: toolProse(new URL('./edit.md', import.meta.url)),
  input: editInput,
  execute: executeEdit,
};
