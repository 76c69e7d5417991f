/**
 * `landfall read|edit|write|list|glob|grep` — one tool call on a real folder, its outcome printed as JSON
 * (`{ ok, title, output, metadata }` or `{ ok: false, error, output }`).
 *
 * One-shot runs have no session memory, so the read-before-edit rule is met like this:
 *   - edit: the file's current version is recorded as observed just before the call (an implicit read). This is
 *     safe: oldString must still match the current bytes, so nothing the caller has not seen is overwritten.
 *   - write over an existing file: NOT implicit — the whole file would be replaced blindly. It answers
 *     `not_observed` unless `--force` is given (then the current version is recorded as observed first).
 *   - read/list/glob/grep need nothing.
 * No permission prompt: running the command is the user's consent. No language servers are started.
 */
import { promises as fsp } from 'node:fs';
import { parseArgs } from 'node:util';
import { ObservedVersions } from '../../fs/observed';
import { readTextFile } from '../../fs/text-file';
import { realRoot, resolveInRoot } from '../../fs/workspace';
import { editTool } from '../../tools/edit';
import { globTool } from '../../tools/glob';
import { grepTool } from '../../tools/grep';
import { listTool } from '../../tools/list';
import { readTool } from '../../tools/read';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../tools/types';
import { writeTool } from '../../tools/write';

const OPTIONS = {
  dir: { type: 'string' },
  path: { type: 'string' },
  offset: { type: 'string' },
  limit: { type: 'string' },
  old: { type: 'string' },
  new: { type: 'string' },
  'old-file': { type: 'string' },
  'new-file': { type: 'string' },
  'replace-all': { type: 'boolean' },
  content: { type: 'string' },
  'content-file': { type: 'string' },
  force: { type: 'boolean' },
  pattern: { type: 'string' },
  include: { type: 'string' },
  'ignore-case': { type: 'boolean' },
  depth: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: false }>>['values'];

async function textArg(inline: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (inline !== undefined) return inline;
  if (file === undefined) return undefined;
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  return fsp.readFile(file, 'utf8');
}

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

/** The tool and its raw input for `command`, from parsed options. */
async function toolCall(command: string, v: Values): Promise<{ tool: ToolDefinition<unknown>; input: Record<string, unknown> }> {
  const pick = <T>(tool: ToolDefinition<T>): ToolDefinition<unknown> => tool as unknown as ToolDefinition<unknown>;
  switch (command) {
    case 'read':
      return { tool: pick(readTool), input: { filePath: v.path, offset: num(v.offset), limit: num(v.limit) } };
    case 'edit':
      return {
        tool: pick(editTool),
        input: { filePath: v.path, oldString: await textArg(v.old, v['old-file']), newString: await textArg(v.new, v['new-file']), replaceAll: v['replace-all'] },
      };
    case 'write':
      return { tool: pick(writeTool), input: { filePath: v.path, content: await textArg(v.content, v['content-file']) } };
    case 'list':
      return { tool: pick(listTool), input: { path: v.path, depth: num(v.depth) } };
    case 'glob':
      return { tool: pick(globTool), input: { pattern: v.pattern, path: v.path } };
    default:
      return { tool: pick(grepTool), input: { pattern: v.pattern, path: v.path, include: v.include, ignoreCase: v['ignore-case'] } };
  }
}

/** Record the current version of `filePath` as observed (the documented implicit read). */
async function observeNow(ctx: ToolContext, filePath: unknown): Promise<void> {
  if (typeof filePath !== 'string' || filePath === '') return;
  const r = await resolveInRoot(ctx.root, filePath);
  if (!r.ok || !r.value.exists) return;
  const f = await readTextFile(r.value.real);
  if (f.ok) ctx.observed.record(ctx.sessionId, r.value.real, f.value.stamp);
}

/** Run one tool call and print its outcome as JSON. Exit code: 0 ok, 1 refused, 2 bad usage. */
export async function run(command: string, args: string[]): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args, options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (e) {
    process.stderr.write(`landfall ${command}: ${(e as Error).message}\n`);
    return 2;
  }
  const ctx: ToolContext = { root: await realRoot(values.dir ?? process.cwd()), sessionId: 'cli', observed: new ObservedVersions() };
  const { tool, input } = await toolCall(command, values);
  const parsed = tool.input.safeParse(Object.fromEntries(Object.entries(input).filter(([, x]) => x !== undefined)));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
    process.stdout.write(`${JSON.stringify({ ok: false, error: { code: 'invalid_input', message: issues.join('; '), hint: 'See `landfall help`.' } }, null, 2)}\n`);
    return 2;
  }
  if (command === 'edit' || (command === 'write' && values.force)) await observeNow(ctx, input.filePath);
  let outcome: ToolOutcome = await tool.execute(parsed.data, ctx);
  if (!outcome.ok && command === 'write' && outcome.error.code === 'not_observed') {
    const hint = 'The command line cannot know what you have seen of this file: pass --force to replace its whole content.';
    outcome = { ...outcome, error: { ...outcome.error, hint }, output: `Error (not_observed): ${outcome.error.message}\n${hint}` };
  }
  process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
  return outcome.ok ? 0 : 1;
}
