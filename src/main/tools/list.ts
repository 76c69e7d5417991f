/**
 * The list tool: the files and folders under a folder of the project as an indented tree, respecting
 * .gitignore (walk.ts); dependency/build folders are shown but not entered. Capped at 1,000 entries.
 */
import path from 'node:path';
import { z } from 'zod';
import { failed, resolveToolPath, withheldNote } from './file-access';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

const MAX_ENTRIES = 1_000;

const listInput = z.object({
  path: z.string().optional().describe('Folder to list, relative to the project root (default: the root).'),
  depth: z.number().int().min(0).max(20).optional().describe('How many folder levels to go down (default 3).'),
});
export type ListInput = z.infer<typeof listInput>;

async function executeList(input: ListInput, ctx: ToolContext): Promise<ToolOutcome> {
  const resolved = await resolveToolPath(ctx, input.path ?? '.');
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists)
    return failed(
      await notFoundError(
        ctx,
        r.rel,
        'folder',
        `${r.rel || '.'} does not exist.`,
        'Check the path, or list the project root.',
      ),
    );
  const found: Array<{ rel: string; kind: string }> = [];
  let more = 0;
  const start = r.rel === '' ? '' : `${r.rel}/`;
  let withheld = 0;
  for await (const e of walk(ctx.root, r.real, { maxDepth: input.depth ?? 3 })) {
    if (ctx.reveal?.withheld(e.rel, true)) withheld++;
    else if (found.length >= MAX_ENTRIES) more++;
    else found.push({ rel: e.rel.slice(start.length), kind: e.kind });
  }
  // The walk is breadth-first; sorting by path puts children right under their folder for the tree view.
  found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const lines = found.map((e) => {
    const depth = e.rel.split('/').length - 1;
    return `${'  '.repeat(depth)}${path.posix.basename(e.rel)}${e.kind === 'dir' ? '/' : e.kind === 'symlink' ? ' ->' : ''}`;
  });
  const entries = lines.length;
  const output = [
    `${r.rel || '.'}/`,
    ...lines,
    ...(more > 0 ? [`… and ${more} more (list a subfolder to see them)`] : []),
    ...withheldNote(withheld, 'left out'),
  ].join('\n');
  return { ok: true, title: `list ${r.rel || '.'}`, output, metadata: { entries, more, withheld } };
}

export const listTool: ToolDefinition<ListInput> = {
  name: 'list',
  description: toolProse(new URL('./list.md', import.meta.url)),
  input: listInput,
  execute: executeList,
};
