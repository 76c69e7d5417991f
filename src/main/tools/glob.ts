/**
 * The glob tool: files of the project whose root-relative path matches a glob pattern (tinyglobby), minus what
 * .gitignore excludes, newest first (the files a model most likely wants), capped at 100. Symlinks are not
 * followed, so matches never come from outside the workspace.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { failed, resolveToolPath } from './file-access';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';

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

async function executeGlob(input: GlobInput, ctx: ToolContext): Promise<ToolOutcome> {
  const resolved = await resolveToolPath(ctx, input.path ?? '.');
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  const matched = await glob(input.pattern, { cwd: r.real, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ['**/.git/**'] });
  const visible = await visibleFiles(ctx.root, r.real);
  const prefix = r.rel === '' ? '' : `${r.rel}/`;
  const rels = matched.map((m) => prefix + m.split(path.sep).join('/')).filter((rel) => visible.has(rel));
  const withTimes = await Promise.all(
    rels.map(async (rel) => ({ rel, mtime: (await fsp.stat(path.join(ctx.root, rel)).catch(() => ({ mtimeMs: 0 }))).mtimeMs })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : 1));
  const shown = withTimes.slice(0, MAX_RESULTS).map((f) => f.rel);
  const notes = withTimes.length > MAX_RESULTS ? [`(${withTimes.length - MAX_RESULTS} more matches; narrow the pattern or the path)`] : [];
  const output = shown.length === 0 ? 'No files found.' : [...shown, ...notes].join('\n');
  return { ok: true, title: `glob ${input.pattern}`, output, metadata: { count: withTimes.length, files: shown } };
}

export const globTool: ToolDefinition<GlobInput> = {
  name: 'glob',
  description: 'Find files by glob pattern (e.g. "**/*.test.ts"); newest first; respects .gitignore.',
  input: globInput,
  execute: executeGlob,
};
