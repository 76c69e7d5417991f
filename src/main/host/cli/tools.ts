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
 * Writes are journaled in the data folder's `journal/` (`--data`, else $LANDFALL_DATA_DIR, else ~/.landfall), where
 * the next start of any Landfall host rolls an interrupted one back.
 * No permission prompt: running the command is the user's consent. No language servers are started. Bad usage
 * (unknown option, missing --dir folder, unreadable or non-UTF-8 text file) prints an `invalid_input` error, exit 2;
 * it names the flags (`--path is required.`), never the tools' field names (filePath, oldString).
 */
import { parseArgs } from 'node:util';
import { ok, type Result } from '../../../shared/errors';
import { dataDirOf, journalDirOf } from '../../fs/data-dir';
import { ObservedVersions } from '../../fs/observed';
import { readTextFile } from '../../fs/text-file';
import { resolveInRoot } from '../../fs/workspace';
import { editTool } from '../../tools/edit';
import { globTool } from '../../tools/glob';
import { grepTool } from '../../tools/grep';
import { listTool } from '../../tools/list';
import { readTool } from '../../tools/read';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../tools/types';
import { writeTool } from '../../tools/write';
import { commandUsage, flagFor } from './help';
import { printUsageError, projectRoot, readTextInput } from './input';

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
  data: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: false }>>['values'];

/** An inline text argument, or the text of a file ('-' = stdin). Error: `invalid_input`. */
async function textArg(inline: string | undefined, file: string | undefined): Promise<Result<string | undefined>> {
  if (inline !== undefined) return ok(inline);
  return file === undefined ? ok(undefined) : readTextInput(file);
}

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));

/** The tool and its raw input for `command`, from parsed options. Error: `invalid_input` (an unreadable text file). */
async function toolCall(
  command: string,
  v: Values,
): Promise<Result<{ tool: ToolDefinition<unknown>; input: Record<string, unknown> }>> {
  const pick = <T>(tool: ToolDefinition<T>): ToolDefinition<unknown> => tool as unknown as ToolDefinition<unknown>;
  switch (command) {
    case 'read':
      return ok({ tool: pick(readTool), input: { filePath: v.path, offset: num(v.offset), limit: num(v.limit) } });
    case 'edit': {
      const oldString = await textArg(v.old, v['old-file']);
      if (!oldString.ok) return oldString;
      const newString = await textArg(v.new, v['new-file']);
      if (!newString.ok) return newString;
      return ok({
        tool: pick(editTool),
        input: {
          filePath: v.path,
          oldString: oldString.value,
          newString: newString.value,
          replaceAll: v['replace-all'],
        },
      });
    }
    case 'write': {
      const content = await textArg(v.content, v['content-file']);
      return content.ok ? ok({ tool: pick(writeTool), input: { filePath: v.path, content: content.value } }) : content;
    }
    case 'list':
      return ok({ tool: pick(listTool), input: { path: v.path, depth: num(v.depth) } });
    case 'glob':
      return ok({ tool: pick(globTool), input: { pattern: v.pattern, path: v.path } });
    default:
      return ok({
        tool: pick(grepTool),
        input: { pattern: v.pattern, path: v.path, include: v.include, ignoreCase: v['ignore-case'] },
      });
  }
}

/** A tool input problem in the flags' terms: "--path is required." or "--offset: <what is wrong>." */
function issueText(issue: { path: PropertyKey[]; message: string }): string {
  const field = issue.path[0];
  if (field === undefined) return `${issue.message.replace(/\.?$/, '.')}`;
  const flag = flagFor(String(field));
  if (/received undefined/.test(issue.message)) return `${flag} is required.`;
  return `${flag}: ${issue.message.replace(/\.?$/, '.')}`;
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
    process.stderr.write(`landfall ${command}: ${(e as Error).message}\n${commandUsage(command)}\n`);
    return 2;
  }
  const root = await projectRoot(values.dir ?? process.cwd());
  if (!root.ok) return printUsageError(root.error);
  const ctx: ToolContext = {
    root: root.value,
    sessionId: 'cli',
    observed: new ObservedVersions(),
    journalDir: journalDirOf(dataDirOf(values.data)),
  };
  const call = await toolCall(command, values);
  if (!call.ok) return printUsageError(call.error);
  const { tool, input } = call.value;
  const parsed = tool.input.safeParse(Object.fromEntries(Object.entries(input).filter(([, x]) => x !== undefined)));
  if (!parsed.success) {
    return printUsageError({
      code: 'invalid_input',
      message: parsed.error.issues.map(issueText).join(' '),
      hint: `See \`landfall ${command} --help\`.`,
    });
  }
  if (command === 'edit' || (command === 'write' && values.force)) await observeNow(ctx, input.filePath);
  let outcome: ToolOutcome = await tool.execute(parsed.data, ctx);
  if (!outcome.ok && command === 'write' && outcome.error.code === 'not_observed') {
    const hint =
      'The command line cannot know what you have seen of this file: pass --force to replace its whole content.';
    outcome = {
      ...outcome,
      error: { ...outcome.error, hint },
      output: `Error (not_observed): ${outcome.error.message}\n${hint}`,
    };
  }
  process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
  return outcome.ok ? 0 : 1;
}
