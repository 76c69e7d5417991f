/**
 * The glob tool: files of the project whose path (relative to the search folder) matches a glob pattern
 * (picomatch, dotfiles included), minus what .gitignore excludes, newest first (the files a model most likely
 * wants), capped at 100. The candidates are the files of one ignore-aware walk of the search folder (walk.ts),
 * which never follows symlinks — so matches never come from outside the workspace, and a pattern like
 * `../../**` cannot make the tool crawl the rest of the disk: a pattern that leaves the search folder (absolute,
 * or with a `..` segment) is `invalid_input`. A search folder that does not exist is `file_not_found` with the
 * nearest existing folders (path-hints.ts).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { failed, resolveToolPath, visibleOnly, withheldNote } from './file-access';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

const MAX_RESULTS = 100;

const globInput = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/index.*".'),
  path: z.string().optional().describe('Folder to search in, relative to the project root (default: the root).'),
});
export type GlobInput = z.infer<typeof globInput>;

/** Root-relative paths of the files under `startReal` that the ignore rules keep. */
export async function visibleFiles(root: string, startReal: string): Promise<Set<string>> {
  const files = new Set<string>();
  for await (const e of walk(root, startReal)) if (e.kind === 'file') files.add(e.rel);
  return files;
}

/** True when `pattern` reaches outside the folder it is matched in (absolute, drive letter, or a `..` segment). */
function leavesFolder(pattern: string): boolean {
  return path.posix.isAbsolute(pattern) || path.win32.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..');
}

async function executeGlob(input: GlobInput, ctx: ToolContext): Promise<ToolOutcome> {
  if (leavesFolder(input.pattern)) {
    return failed(
      fail(
        'invalid_input',
        `The pattern ${input.pattern} leaves the search folder.`,
        'Patterns are relative to `path` (the project root by default); to search another folder inside the project, set path.',
      ).error,
    );
  }
  const resolved = await resolveToolPath(ctx, input.path ?? '.');
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists)
    return failed(
      await notFoundError(
        ctx,
        r.rel,
        'folder',
        `${r.rel} does not exist.`,
        'Check the path with list, or leave it out.',
      ),
    );
  const isMatch = picomatch(input.pattern, { dot: true });
  const prefix = r.rel === '' ? '' : `${r.rel}/`;
  const matched = [...(await visibleFiles(ctx.root, r.real))].filter(
    (rel) => rel.startsWith(prefix) && isMatch(rel.slice(prefix.length)),
  );
  const { shown: rels, withheld } = visibleOnly(ctx, matched, (rel) => rel);
  const withTimes = await Promise.all(
    rels.map(async (rel) => ({
      rel,
      mtime: (await fsp.stat(path.join(ctx.root, rel)).catch(() => ({ mtimeMs: 0 }))).mtimeMs,
    })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : 1));
  const shown = withTimes.slice(0, MAX_RESULTS).map((f) => f.rel);
  const notes = [
    ...(withTimes.length > MAX_RESULTS
      ? [`(${withTimes.length - MAX_RESULTS} more matches; narrow the pattern or the path)`]
      : []),
    ...withheldNote(withheld, 'left out'),
  ];
  const output = [...(shown.length === 0 ? ['No files found.'] : shown), ...notes].join('\n');
  return {
    ok: true,
    title: `glob ${input.pattern}`,
    output,
    metadata: { count: withTimes.length, files: shown, withheld },
  };
}

export const globTool: ToolDefinition<GlobInput> = {
  name: 'glob',
  description: toolProse(new URL('./glob.md', import.meta.url)),
  input: globInput,
  execute: executeGlob,
};
