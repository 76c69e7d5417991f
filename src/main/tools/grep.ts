/**
 * The grep tool: lines of project files matching a JavaScript regular expression, as `path:line: text`,
 * grouped by file; .gitignore respected (walk.ts), binary files and files over 5 MB skipped, an optional glob
 * filter on the file path (picomatch), capped at 200 matches and 2,000 characters per line. Files are decoded
 * with the same encoding rules as read, so a Latin-1 file is searched as text too. Matching runs in a worker
 * under a 3 s budget (regex-worker.ts): a catastrophically backtracking pattern stops the search with a note
 * and the matches found so far, instead of freezing the app.
 */
import { promises as fsp } from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { decodeBytes } from '../fs/text-file';
import { failed, resolveToolPath, visibleOnly, withheldNote } from './file-access';
import { MAX_LINE_CHARS } from './read';
import { RegexRunner } from './regex-worker';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';

const MAX_MATCHES = 200;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Time the regex may spend matching in one call (ms), in a worker that is terminated when it runs out. */
const MATCH_BUDGET_MS = 3_000;

const grepInput = z.object({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax) to search for.'),
  path: z.string().optional().describe('Folder (or file) to search, relative to the project root (default: the root).'),
  include: z
    .string()
    .optional()
    .describe('Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
  ignoreCase: z.boolean().optional().describe('Case-insensitive search.'),
});
export type GrepInput = z.infer<typeof grepInput>;

/**
 * Up to `limit` matches of one file appended to `out` (`path:` then `  N: text` lines). Returns how many, or
 * undefined when the matching budget ran out. Unreadable, binary and over-5-MB files count as no match.
 */
async function searchFile(
  abs: string,
  rel: string,
  runner: RegexRunner,
  out: string[],
  limit: number,
): Promise<number | undefined> {
  let bytes: Buffer;
  try {
    const st = await fsp.stat(abs);
    if (st.size > MAX_FILE_BYTES) return 0;
    bytes = await fsp.readFile(abs);
  } catch {
    return 0;
  }
  const decoded = decodeBytes(bytes);
  if (!decoded.ok) return 0;
  const lines = decoded.value.text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const hits = await runner.match(lines, limit);
  if (hits === undefined) return undefined;
  if (hits.length > 0) out.push(`${rel}:`);
  for (const i of hits) {
    const line = lines[i] as string;
    out.push(`  ${i + 1}: ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut]` : line}`);
  }
  return hits.length;
}

async function executeGrep(input: GrepInput, ctx: ToolContext): Promise<ToolOutcome> {
  let re: RegExp;
  try {
    re = new RegExp(input.pattern, input.ignoreCase ? 'iu' : 'u');
  } catch (e) {
    return failed(
      fail(
        'invalid_input',
        `Invalid regular expression: ${(e as Error).message}`,
        'Fix the pattern (JavaScript RegExp syntax; escape ( ) [ ] { } . * + ? with \\).',
      ).error,
    );
  }
  const resolved = await resolveToolPath(ctx, input.path ?? '.');
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists) return failed(fail('file_not_found', `${r.rel} does not exist.`, 'Check the path with list.').error);
  const include = input.include
    ? picomatch(input.include, { dot: true, basename: !input.include.includes('/') })
    : undefined;
  // files a read rule withholds are not searched at all; the output says how many (file-access.ts visibleOnly)
  const found = await searchTargets(ctx, r.real, r.rel, include);
  const { shown: targets, withheld } =
    found.length === 1 && found[0]?.rel === r.rel
      ? { shown: found, withheld: 0 }
      : visibleOnly(ctx, found, (t) => t.rel);
  const runner = new RegexRunner(input.pattern, re.flags, MATCH_BUDGET_MS);
  const out: string[] = [];
  let matches = 0;
  let files = 0;
  try {
    for (const t of targets) {
      if (matches >= MAX_MATCHES) break;
      const n = await searchFile(t.abs, t.rel, runner, out, MAX_MATCHES - matches);
      if (n === undefined) break;
      if (n > 0) files++;
      matches += n;
    }
  } finally {
    await runner.close();
  }
  const capped = matches >= MAX_MATCHES;
  const notes = [
    ...withheldNote(withheld, 'withheld'),
    ...(capped ? [`(stopped after ${matches} matches; narrow the pattern, path or include)`] : []),
    ...(runner.exhausted
      ? [
          `(stopped after ${MATCH_BUDGET_MS / 1000} s of matching: the pattern may backtrack catastrophically (nested quantifiers such as (a+)+); simplify it, or narrow path or include)`,
        ]
      : []),
  ];
  const output = matches === 0 && notes.length === 0 ? 'No matches found.' : [...out, ...notes].join('\n');
  return {
    ok: true,
    title: `grep ${input.pattern}`,
    output,
    metadata: { matches, files, capped, budgetExhausted: runner.exhausted, withheld },
  };
}

/** The files to search: `real` itself when it is a file, else the visible files under it; only those `include` keeps. */
async function searchTargets(
  ctx: ToolContext,
  real: string,
  rel: string,
  include: ((p: string) => boolean) | undefined,
): Promise<Array<{ rel: string; abs: string }>> {
  const targets: Array<{ rel: string; abs: string }> = [];
  if ((await fsp.stat(real)).isFile()) targets.push({ rel, abs: real });
  else for await (const e of walk(ctx.root, real)) if (e.kind === 'file') targets.push({ rel: e.rel, abs: e.abs });
  return include ? targets.filter((t) => include(t.rel)) : targets;
}

export const grepTool: ToolDefinition<GrepInput> = {
  name: 'grep',
  description:
    'Search file contents with a regular expression; answers "path:" then "  line: text" per match; respects .gitignore.',
  input: grepInput,
  execute: executeGrep,
};
