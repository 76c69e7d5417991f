/**
 * The edit tool (DESIGN §2–3, issue 2 §4): `edit(filePath, oldString, newString, replaceAll?)`.
 * Inside the file's lock: resolve in the workspace → read and decode → observed-version check (BEFORE matching:
 * `not_observed`, `stale`) → land via the replacer ladder on the file's real text (edit-landing.ts) → encode back
 * in the file's own encoding (`unencodable` refused) → permission ask with the preview diff → atomic write →
 * commit diff and diagnostics. An empty oldString creates a new file and is refused on an existing one (B10).
 * The output names the rung and the line range, so a fuzzy landing is visible (B02).
 */
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { describeLanding } from '../edit';
import { withFileLock } from '../fs/file-lock';
import { checkFresh } from '../fs/observed';
import { encodeText, readTextFile } from '../fs/text-file';
import type { ResolvedPath } from '../fs/workspace';
import { commitWrite } from './commit-write';
import { landEdit, type Landing } from './edit-landing';
import { failed, resolveToolPath, withDiagnostics } from './file-access';
import { newFileContent } from './new-file';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

const editInput = z.object({
  filePath: z.string().min(1).describe('File to edit, relative to the project root.'),
  oldString: z.string().describe('The exact text to replace, copied from the file (without the "N: " line prefixes). Empty creates a new file.'),
  newString: z.string().describe('The text to put in its place.'),
  replaceAll: z.boolean().optional().describe('Replace every occurrence of oldString (default false: it must occur once).'),
});
export type EditInput = z.infer<typeof editInput>;

async function createFile(input: EditInput, ctx: ToolContext, r: ResolvedPath): Promise<ToolOutcome> {
  if (r.exists) {
    return failed(
      fail('exists', `${r.rel} already exists; an empty oldString only creates new files.`, 'To add text, put the lines next to where it goes in oldString and repeat them in newString with your addition; to replace the whole file, read it and use write.', { path: r.rel }).error,
    );
  }
  const created = newFileContent(input.newString);
  if (!created.ok) return failed(created.error);
  const committed = await commitWrite(ctx, 'edit', r, { text: '', bytes: null }, created.value, false);
  if (!committed.ok) return failed(committed.error);
  const output = withDiagnostics(`Created ${r.rel} (${committed.value.diff.additions} lines).`, committed.value.diagnosticsText);
  return { ok: true, title: `edit ${r.rel}`, output, metadata: { diff: committed.value.diff, created: true, diagnostics: committed.value.diagnostics?.diagnostics } };
}

function describe(rel: string, landing: Landing, staleNote: boolean): string {
  const note = staleNote ? `\nNote: ${rel} had changed on disk since you last read it; your oldString was found exactly once in the current content and the edit was applied there. Read the file again before further edits elsewhere.` : '';
  return `${rel}: ${describeLanding(landing)}${note}`;
}

async function editExisting(input: EditInput, ctx: ToolContext, r: ResolvedPath): Promise<ToolOutcome> {
  const file = await readTextFile(r.real);
  if (!file.ok) return failed(file.error);
  const f = file.value;
  const fresh = await checkFresh(ctx, r, f.bytes);
  if (!fresh.ok && fresh.error.code !== 'stale') return failed(fresh.error);
  const stale = !fresh.ok;
  const landing = landEdit(f.text, input.oldString, input.newString, { replaceAll: input.replaceAll ?? false, stale, rel: r.rel });
  if (!landing.ok) return failed(landing.error);
  const afterText = landing.value.content;
  const bytes = encodeText(afterText, f.encoding);
  if (!bytes.ok) return failed(bytes.error);
  if (bytes.value.equals(f.bytes)) {
    return failed(fail('no_change', `The edit would leave ${r.rel} byte-identical.`, 'Send an edit that changes the text.').error);
  }
  const committed = await commitWrite(ctx, 'edit', r, { text: f.text, bytes: f.bytes, mode: f.mode }, { text: afterText, bytes: bytes.value }, false);
  if (!committed.ok) return failed(committed.error);
  const { diff, diagnosticsText, diagnostics } = committed.value;
  return {
    ok: true,
    title: `edit ${r.rel}`,
    output: withDiagnostics(describe(r.rel, landing.value, stale), diagnosticsText),
    metadata: {
      diff,
      rung: landing.value.rung,
      startLine: landing.value.startLine,
      endLine: landing.value.endLine,
      replacements: landing.value.replacements,
      corrections: landing.value.corrections,
      encoding: f.encoding.encoding,
      staleApplied: stale,
      diagnostics: diagnostics?.diagnostics,
    },
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
      return failed(fail('file_not_found', `${r.rel} does not exist.`, 'Check the path with glob; to create a new file use write, or edit with an empty oldString.', { path: r.rel }).error);
    }
    return editExisting(input, ctx, r);
  });
}

export const editTool: ToolDefinition<EditInput> = {
  name: 'edit',
  description:
    'Replace text in a file you have read: oldString must match one place in the file (copy it from read output without the "N: " prefixes); ' +
    'set replaceAll to change every occurrence. An empty oldString creates a new file. Line endings, BOM and encoding of the file are kept.',
  input: editInput,
  execute: executeEdit,
};
