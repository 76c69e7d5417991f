/**
 * The read tool (DESIGN §3): numbered lines `N: text` from line `offset` (1-based) for up to `limit`
 * lines; a line over 2,000 characters is cut with a marker; the whole output stops at 50 KB with a note naming
 * the offset to continue from. A directory answers with its entries. Binary files are refused. Every successful
 * read of a file records the session's observed version (what edit/write check against) and warms up the
 * file's language server. Line endings are not shown (a CR before LF is dropped from the view) and a BOM is
 * never shown as text (fixtures/bugs/README.md B18): the model copies what it sees into oldString. A tool output
 * the output cap saved whole (output-cap-file.ts) is readable by its absolute path, outside the project, and
 * nothing else outside is.
 */
import path from 'node:path';
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { withFileLock } from '../fs/file-lock';
import { readDirChecked } from '../fs/read-checked';
import { readTextFile, lineEnding, type TextFile } from '../fs/text-file';
import { isInside } from '../fs/workspace';
import { outputDir, savedOutputFile } from './output-cap-file';
import { failed, resolveToolPath, touchDiagnostics, visibleOnly, withheldNote } from './file-access';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolProse } from './prose';
import { notFoundError } from './path-hints';

export const MAX_LINE_CHARS = 2_000;
export const MAX_OUTPUT_BYTES = 50 * 1024;
export const DEFAULT_READ_LIMIT = 2_000;
const MAX_DIR_ENTRIES = 1_000;

const readInput = z.object({
  filePath: z.string().min(1).describe('File or folder to read, relative to the project root (or absolute inside it).'),
  offset: z.number().int().min(1).optional().describe('First line to show, 1-based (default 1).'),
  limit: z.number().int().min(1).optional().describe(`How many lines to show (default ${DEFAULT_READ_LIMIT}).`),
});
export type ReadInput = z.infer<typeof readInput>;

/** Render lines `[from, to)` of `lines` as `N: text`, cutting long lines and stopping at the byte budget. */
export function numberLines(
  lines: string[],
  from: number,
  to: number,
): { text: string; lastShown: number; cutForSize: boolean } {
  const out: string[] = [];
  let bytes = 0;
  let lastShown = from;
  for (let i = from; i < to; i++) {
    let line = lines[i] ?? '';
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} characters in all]`;
    }
    const rendered = `${i + 1}: ${line}`;
    const size = Buffer.byteLength(rendered, 'utf8') + 1;
    if (bytes + size > MAX_OUTPUT_BYTES && out.length > 0) return { text: out.join('\n'), lastShown, cutForSize: true };
    out.push(rendered);
    bytes += size;
    lastShown = i + 1;
  }
  return { text: out.join('\n'), lastShown, cutForSize: false };
}

/** Split decoded text into lines; a final newline does not start an extra line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function readDirectory(abs: string, rel: string, ctx: ToolContext): Promise<ToolOutcome> {
  // Read from the folder that was opened and checked: a folder swapped for an outward link meanwhile is refused.
  const all = await readDirChecked(abs);
  if (!all)
    return failed(
      fail(
        'outside_root',
        `${rel || '.'} no longer leads to the folder that was checked (it was moved or replaced while being listed).`,
        'Check what changed on the path, then list it again.',
        { path: rel },
      ).error,
    );
  const { shown: entries, withheld } = visibleOnly(ctx, all, (e) => (rel === '' ? e.name : `${rel}/${e.name}`));
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort((a, b) => a.localeCompare(b));
  const shown = names.slice(0, MAX_DIR_ENTRIES);
  const more = names.length - shown.length;
  const output = [
    `${rel || '.'}/ (${names.length} entries)`,
    ...shown,
    ...(more > 0 ? [`… and ${more} more`] : []),
    ...withheldNote(withheld, 'left out'),
  ].join('\n');
  return { ok: true, title: `read ${rel || '.'}/`, output, metadata: { directory: true, entries: names.length } };
}

/** `file_not_found` with the existing paths nearest to `rel` (path-hints.ts). */
async function notFound(ctx: ToolContext, rel: string): Promise<ToolOutcome> {
  return failed(await notFoundError(ctx, rel, 'file', `${rel} does not exist.`, 'Check the path with list or glob.'));
}

/** The numbered view of a decoded file for `input`'s range, with its notes and metadata (`rel`: its label). */
function renderText(input: ReadInput, file: TextFile, rel: string): ToolOutcome {
  const lines = splitLines(file.text);
  const from = (input.offset ?? 1) - 1;
  const to = Math.min(lines.length, from + (input.limit ?? DEFAULT_READ_LIMIT));
  const body = numberLines(lines, from, to);
  const notes: string[] = [];
  if (lines.length === 0) notes.push('(empty file)');
  else if (from >= lines.length)
    notes.push(`(the file has only ${lines.length} lines; offset ${from + 1} is past its end)`);
  else if (body.cutForSize) {
    notes.push(
      `(output cut at 50 KB after line ${body.lastShown} of ${lines.length}; call read with offset=${body.lastShown + 1} to read further)`,
    );
  } else if (to < lines.length) {
    notes.push(`(showing lines ${from + 1}-${to} of ${lines.length}; call read with offset=${to + 1} to read further)`);
  }
  const enc = file.encoding;
  if (enc.encoding !== 'utf8')
    notes.push(`(encoding: ${enc.encoding}${enc.bom ? ' with BOM' : ''}; edits are written back in it)`);
  const output = [body.text, ...notes].filter((s) => s !== '').join('\n');
  return {
    ok: true,
    title: `read ${rel}`,
    output,
    metadata: {
      path: rel,
      lines: lines.length,
      from: from + 1,
      to: body.lastShown,
      truncated: body.cutForSize || to < lines.length,
      encoding: enc.encoding,
      bom: enc.bom,
      lineEnding: lineEnding(file.text) === '\r\n' ? 'crlf' : 'lf',
    },
  };
}

/**
 * A tool output saved whole by the output cap (output-cap-file.ts), outside the project: read like a file, but
 * nothing is recorded as observed (it can never be edited) and no language server is asked.
 */
async function readSavedOutput(input: ReadInput, real: string): Promise<ToolOutcome> {
  const file = await readTextFile(real);
  if (!file.ok) return failed(file.error);
  return renderText(input, file.value, real);
}

/** Read a file (or list a folder) for the model; see the module docstring. */
async function executeRead(input: ReadInput, ctx: ToolContext): Promise<ToolOutcome> {
  if (path.isAbsolute(input.filePath) && !isInside(ctx.root, path.resolve(input.filePath))) {
    const saved = await savedOutputFile(outputDir(ctx.scratchDir), input.filePath);
    if (saved !== undefined) return readSavedOutput(input, saved);
  }
  const resolved = await resolveToolPath(ctx, input.filePath);
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  if (!r.exists) return notFound(ctx, r.rel);
  return withFileLock(r.real, async () => {
    const file = await readTextFile(r.real);
    if (!file.ok && file.error.code === 'is_directory') return readDirectory(r.real, r.rel, ctx);
    if (!file.ok && file.error.code === 'file_not_found') return notFound(ctx, r.rel);
    if (!file.ok) return failed(file.error);
    ctx.observed.record(ctx.sessionId, r.real, file.value.stamp);
    touchDiagnostics(ctx, r.real);
    return renderText(input, file.value, r.rel);
  });
}

export const readTool: ToolDefinition<ReadInput> = {
  name: 'read',
  description: toolProse(new URL('./read.md', import.meta.url)),
  input: readInput,
  execute: executeRead,
};
