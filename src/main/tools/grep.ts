/**
 * The grep tool: lines of project files matching a JavaScript regular expression, as `path:line: text`,
 * grouped by file; .gitignore respected (walk.ts), binary files and files over 5 MB skipped, an optional glob
 * filter on the file path (picomatch), capped at 200 matches and 2,000 characters per line. Files are decoded
 * with the same encoding rules as read, so a Latin-1 file is searched as text too.
 */
import { promises as fsp } from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { decodeBytes } from '../fs/text-file';
import { failed, resolveToolPath } from './file-access';
import { MAX_LINE_CHARS } from './read';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { walk } from './walk';

const MAX_MATCHES = 200;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const grepInput = z.object({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax) to search for.'),
  path: z.string().optional().describe('Folder (or file) to search, relative to the project root (default: the root).'),
  include: z.string().optional().describe('Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
  ignoreCase: z.boolean().optional().describe('Case-insensitive search.'),
});
export type GrepInput = z.infer<typeof grepInput>;

async function searchFile(abs: string, rel: string, re: RegExp, out: string[], limit: number): Promise<number> {
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
  const lines = decoded.value.text.split('\n');
  let found = 0;
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    let line = lines[i] as string;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    re.lastIndex = 0;
    if (!re.test(line)) continue;
    if (found === 0) out.push(`${rel}:`);
    out.push(`  ${i + 1}: ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut]` : line}`);
    found++;
  }
  return found;
}

async function executeGrep(input: GrepInput, ctx: ToolContext): Promise<ToolOutcome> {
  let re: RegExp;
  try {
    re = new RegExp(input.pattern, input.ignoreCase ? 'iu' : 'u');
  } catch (e) {
    return failed(fail('invalid_input', `Invalid regular expression: ${(e as Error).message}`, 'Fix the pattern (JavaScript RegExp syntax; escape ( ) [ ] { } . * + ? with \\).').error);
  }
  const resolved = await resolveToolPath(ctx, input.path ?? '.');
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists) return failed(fail('file_not_found', `${r.rel} does not exist.`, 'Check the path with list.').error);
  const include = input.include ? picomatch(input.include, { dot: true, basename: !input.include.includes('/') }) : undefined;
  const out: string[] = [];
  let matches = 0;
  let files = 0;
  const st = await fsp.stat(r.real);
  const targets = st.isFile() ? [{ rel: r.rel, abs: r.real }] : [];
  if (!st.isFile()) for await (const e of walk(ctx.root, r.real)) if (e.kind === 'file') targets.push({ rel: e.rel, abs: e.abs });
  for (const t of targets) {
    if (out.length >= MAX_MATCHES * 2) break;
    if (include && !include(t.rel)) continue;
    const n = await searchFile(t.abs, t.rel, re, out, MAX_MATCHES * 2);
    if (n > 0) files++;
    matches += n;
    if (matches >= MAX_MATCHES) break;
  }
  const capped = matches >= MAX_MATCHES;
  const output = matches === 0 ? 'No matches found.' : [...out, ...(capped ? [`(stopped after ${matches} matches; narrow the pattern, path or include)`] : [])].join('\n');
  return { ok: true, title: `grep ${input.pattern}`, output, metadata: { matches, files, capped } };
}

export const grepTool: ToolDefinition<GrepInput> = {
  name: 'grep',
  description: 'Search file contents with a regular expression; answers "path:" then "  line: text" per match; respects .gitignore.',
  input: grepInput,
  execute: executeGrep,
};
