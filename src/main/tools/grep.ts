/**
 * The grep tool: lines of project files matching a JavaScript regular expression, as `path:line: text`,
 * grouped by file; .gitignore respected (walk.ts), binary files and files over 5 MB (counted in bytes actually
 * read, so a pseudo-file reporting size 0 is no exception) skipped and NAMED in the output, an optional glob
 * filter on the file path (picomatch), capped at 200 matches and 2,000 characters per line. Files are decoded
 * with the same encoding rules as read, so a Latin-1 file is searched as text too. Matching runs in a worker
 * under a 3 s budget (regex-worker.ts): a catastrophically backtracking pattern stops the search with a note
 * and the matches found so far, instead of freezing the app.
 */
import { promises as fsp } from 'node:fs';
import { readChecked } from '../fs/read-checked';
import picomatch from 'picomatch';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { decodeBytes } from '../fs/text-file';
import { failed, resolveToolPath, visibleOnly, withheldNote } from './file-access';
import { MAX_LINE_CHARS } from './read';
import { RegexRunner } from './regex-worker';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

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

/** A file grep did not search, and why (named in the output: "No matches found." never hides them). */
export interface SkippedFile {
  path: string;
  reason: 'too_large' | 'unreadable' | 'binary' | 'special' | 'moved';
}

/**
 * Up to `limit` matches of one file appended to `out` (`path:` then `  N: text` lines). Returns how many, or
 * undefined when the matching budget ran out. A file that cannot be searched (over 5 MB by bytes actually read,
 * unreadable, binary, not a regular file, or moved while being opened) is added to `skipped` and counts 0.
 */
async function searchFile(
  abs: string,
  rel: string,
  runner: RegexRunner,
  out: string[],
  limit: number,
  skipped: SkippedFile[],
): Promise<number | undefined> {
  const read = await readChecked(abs, MAX_FILE_BYTES);
  if (!read.ok) {
    const reason =
      read.why === 'too_large'
        ? 'too_large'
        : read.why === 'moved'
          ? 'moved'
          : read.why === 'not_regular'
            ? 'special'
            : read.why === 'missing'
              ? undefined // deleted since it was listed: not a file any more
              : 'unreadable';
    if (reason) skipped.push({ path: rel, reason });
    return 0;
  }
  const decoded = decodeBytes(read.bytes);
  if (!decoded.ok) {
    skipped.push({ path: rel, reason: 'binary' });
    return 0;
  }
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

const WHY: Record<SkippedFile['reason'], string> = {
  too_large: 'over 5 MB',
  unreadable: 'unreadable',
  binary: 'binary',
  special: 'not a regular file',
  moved: 'its folder changed while it was opened',
};

/**
 * The note naming what was not searched (up to 20 files). Binary files are left out of it, as grep and ripgrep do
 * (they are listed in the metadata); every other skip is named, so "No matches found." never hides one.
 */
function skippedNote(skipped: SkippedFile[]): string[] {
  const named = skipped.filter((s) => s.reason !== 'binary');
  if (named.length === 0) return [];
  const shown = named.slice(0, 20).map((s) => `${s.path} (${WHY[s.reason]})`);
  const more = named.length - shown.length;
  return [`(not searched: ${[...shown, ...(more > 0 ? [`${more} more`] : [])].join(', ')})`];
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
  if (!r.exists)
    return failed(await notFoundError(ctx, r.rel, 'folder', `${r.rel} does not exist.`, 'Check the path with list.'));
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
  const skipped: SkippedFile[] = [];
  let matches = 0;
  let files = 0;
  try {
    for (const t of targets) {
      if (matches >= MAX_MATCHES) break;
      const n = await searchFile(t.abs, t.rel, runner, out, MAX_MATCHES - matches, skipped);
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
  const body = matches === 0 && notes.length === 0 ? ['No matches found.'] : out;
  const output = [...body, ...notes, ...skippedNote(skipped)].join('\n');
  return {
    ok: true,
    title: `grep ${input.pattern}`,
    output,
    metadata: { matches, files, capped, budgetExhausted: runner.exhausted, withheld, skipped },
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
  const st = await fsp.lstat(real).catch(() => undefined);
  if (st?.isFile()) targets.push({ rel, abs: real });
  else for await (const e of walk(ctx.root, real)) if (e.kind === 'file') targets.push({ rel: e.rel, abs: e.abs });
  return include ? targets.filter((t) => include(t.rel)) : targets;
}

export const grepTool: ToolDefinition<GrepInput> = {
  name: 'grep',
  description: toolProse(new URL('./grep.md', import.meta.url)),
  input: grepInput,
  execute: executeGrep,
};
