/**
 * The multiedit tool: several edits of ONE file as one batch (`applyEdits` of the engine): every edit is
 * resolved against the file as it was (a later edit never matches text an earlier one inserted, fixtures/bugs/README.md B12), edits
 * must not overlap, and it is all or nothing — one failing edit fails the batch and nothing is written; the
 * error names the edit (0-based index in data.edit). On a stale file (changed on disk since the session saw it)
 * the batch is refused: several regions would have to be trusted at once.
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../shared/errors';
import { applyEdits, describeLanding } from '../engine/edit';
import { withFileLock } from '../fs/file-lock';
import { stripBomChar } from '../fs/text-file';
import { editExistingFile, type Landed } from './edit-file';
import { failed, resolveToolPath } from './file-access';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

const multieditInput = z.object({
  filePath: z.string().min(1).describe('File to edit, relative to the project root.'),
  edits: z
    .array(
      z.object({
        oldString: z.string().min(1).describe('Exact text to replace (from the file as it is now).'),
        newString: z.string(),
        replaceAll: z.boolean().optional(),
      }),
    )
    .min(1)
    .describe('Edits, each matched against the file as it is before any of them.'),
});
export type MultieditInput = z.infer<typeof multieditInput>;

function landBatch(input: MultieditInput, rel: string): (text: string, stale: boolean) => Result<Landed> {
  return (text, stale) => {
    if (stale) {
      return fail(
        'stale',
        `${rel} changed on disk since you last read it.`,
        `Read ${rel} again and base your edits on its current content.`,
        { path: rel },
      );
    }
    const edits = input.edits.map((e) => ({
      oldString: stripBomChar(e.oldString),
      newString: stripBomChar(e.newString),
      replaceAll: e.replaceAll ?? false,
    }));
    const landed = applyEdits(text, edits);
    if (!landed.ok) {
      const index = landed.error.data?.edit;
      const which = typeof index === 'number' ? `Edit ${index + 1} of ${edits.length}: ` : '';
      return { ok: false, error: { ...landed.error, message: `${which}${landed.error.message} Nothing was written.` } };
    }
    const lines = landed.value.edits.map((e, i) => `  ${i + 1}. ${describeLanding(e)}`);
    return ok({
      content: landed.value.content,
      summary: `${rel}: ${edits.length} edits landed\n${lines.join('\n')}`,
      metadata: {
        edits: landed.value.edits.map((e) => ({
          rung: e.rung,
          startLine: e.startLine,
          endLine: e.endLine,
          replacements: e.replacements,
          corrections: e.corrections,
        })),
      },
    });
  };
}

async function executeMultiedit(input: MultieditInput, ctx: ToolContext): Promise<ToolOutcome> {
  const resolved = await resolveToolPath(ctx, input.filePath);
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists)
    return failed(
      await notFoundError(
        ctx,
        r.rel,
        'file',
        `${r.rel} does not exist.`,
        'Check the path, or create it with write first.',
      ),
    );
  return withFileLock(r.real, () => editExistingFile(ctx, 'multiedit', r, landBatch(input, r.rel)));
}

export const multieditTool: ToolDefinition<MultieditInput> = {
  name: 'multiedit',
  description: toolProse(new URL('./multiedit.md', import.meta.url)),
  input: multieditInput,
  execute: executeMultiedit,
};
