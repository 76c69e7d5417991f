/**
 * What read, edit and write share around the file layer: resolving a tool's path inside the workspace, asking
 * permission with a preview diff, re-checking the disk right before writing (the user may have saved while a
 * permission prompt was open), and asking the language servers for diagnostics after a write.
 */
import path from 'node:path';
import { fail, ok, type LandfallError, type Result } from '../../shared/errors';
import type { FileChange } from '../../shared/model';
import { readChecked } from '../fs/read-checked';
import { resolveInRoot, type ResolvedPath } from '../fs/workspace';
import { gitControlled, gitDirTitle } from './git-dir';
import type { DiagnosticsReport } from '../lsp/hook';
import { toolFailure, type ToolContext, type ToolFailure } from './types';

/**
 * Resolve a tool's `filePath` against the context's root. Errors: `outside_root`, `invalid_input`, and
 * `permission_denied` when the file exists and the read policy withholds it (`ctx.reveal`, by its real path or
 * the name given): every file tool resolves through here, so none of them shows its bytes (an edit's "closest
 * region" included) — withheldPath().
 */
export async function resolveToolPath(ctx: ToolContext, filePath: string): Promise<Result<ResolvedPath>> {
  const resolved = await resolveInRoot(ctx.root, filePath);
  if (!resolved.ok || !resolved.value.exists) return resolved;
  const why = withheldPath(ctx, resolved.value, filePath);
  if (why === undefined) return resolved;
  return fail(
    'permission_denied',
    `${resolved.value.rel || '.'} may not be shown: ${why}.`,
    'Leave this file alone, or ask the user to show you what you need from it.',
    { path: resolved.value.rel },
  );
}

/** Why the read policy withholds `resolved` (its real path, or `given` as written), or undefined. */
export function withheldPath(ctx: ToolContext, resolved: ResolvedPath, given?: string): string | undefined {
  if (!ctx.reveal) return undefined;
  const forms = new Set([resolved.rel]);
  if (given !== undefined) forms.add(path.relative(ctx.root, path.resolve(ctx.root, given)).split(path.sep).join('/'));
  for (const rel of forms) {
    if (rel === '' || rel.startsWith('..')) continue;
    const why = ctx.reveal.withheld(rel);
    if (why) return why;
  }
  return undefined;
}

/** Split `rels` into those the read policy lets the model see and how many it withholds (grep, glob, list). */
export function visibleOnly<T>(ctx: ToolContext, items: T[], rel: (t: T) => string): { shown: T[]; withheld: number } {
  if (!ctx.reveal) return { shown: items, withheld: 0 };
  const shown = items.filter((t) => ctx.reveal?.withheld(rel(t), true) === undefined);
  return { shown, withheld: items.length - shown.length };
}

/** The note a listing or search adds when the read policy left files out (empty when none). */
export function withheldNote(count: number, what: string): string[] {
  if (count === 0) return [];
  return [
    `(${count} ${count === 1 ? 'file' : 'files'} ${what} by a permission rule: not shown; read one by name to be told why)`,
  ];
}

/** A tool failure from an error (shorthand for the tools). */
export function failed(error: LandfallError): ToolFailure {
  return toolFailure(error);
}

/**
 * Ask `ctx.ask` whether `tool` may write `resolved` (preview diff attached): `edit`, then, for a path inside a
 * repository's own git folder (git-dir.ts), `git_dir`. No `ask` in the context means allowed (the command-line
 * tool commands, run by the user). Error: `permission_denied` with the user's reason as the hint.
 */
export async function askToWrite(
  ctx: ToolContext,
  tool: string,
  resolved: ResolvedPath,
  preview: FileChange,
): Promise<Result<void>> {
  if (!ctx.ask) return ok(undefined);
  const edit = await ctx.ask({
    tool,
    permission: 'edit',
    patterns: [resolved.rel],
    title: `${tool} ${resolved.rel}`,
    preview: [preview],
  });
  // a repository's own .git folder: a second, dedicated question that no rule or "always" answer covers
  const answer =
    edit.allow && (await gitControlled(ctx.root, resolved.rel))
      ? await ctx.ask({
          tool,
          permission: 'git_dir',
          patterns: [resolved.rel],
          title: gitDirTitle(`${tool} ${resolved.rel}`),
          preview: [preview],
        })
      : edit;
  if (answer.allow) return ok(undefined);
  return fail(
    'permission_denied',
    `The user did not allow ${tool} on ${resolved.rel}.`,
    answer.reason
      ? `The user said: ${answer.reason}`
      : 'Ask the user how to proceed instead of retrying the same change.',
    { path: resolved.rel },
  );
}

/**
 * Right before writing: `resolved` must still lead to the same real path inside the root. The permission prompt
 * can stay open for minutes, and a folder on the path may meanwhile have been swapped for a symlink leading out
 * of the project; writing to the old real path would then follow the new link. Error: `outside_root`.
 */
export async function stillInside(ctx: ToolContext, resolved: ResolvedPath): Promise<Result<void>> {
  const again = await resolveInRoot(ctx.root, resolved.abs);
  if (again.ok && again.value.real === resolved.real) return ok(undefined);
  const now = again.ok ? again.value.real : String(again.error.data?.real ?? again.error.message);
  return fail(
    'outside_root',
    `${resolved.rel} no longer leads to the same place (it now resolves to ${now}): a folder on its path was replaced while this call waited; nothing was written.`,
    `Check what changed on ${resolved.rel}'s path, then repeat the change with a path inside the project.`,
    { path: resolved.rel, real: now },
  );
}

/**
 * Right before writing: the bytes on disk must still be `expected` (null = the file must still be absent).
 * Error: `stale` (someone changed the file while we waited, e.g. during the permission prompt).
 */
export async function unchangedSince(resolved: ResolvedPath, expected: Buffer | null): Promise<Result<void>> {
  // Checked and bounded by what is expected (src/main/fs/read-checked.ts): anything else there is a change.
  const now = await readChecked(resolved.real, expected?.length ?? 0);
  const same = expected === null ? !now.ok && now.why === 'missing' : now.ok && now.bytes.equals(expected);
  if (same) return ok(undefined);
  return fail(
    'stale',
    `${resolved.rel} changed on disk while this call was waiting; nothing was written.`,
    `Read ${resolved.rel} again and repeat the change on its current content.`,
    { path: resolved.rel },
  );
}

/**
 * Ask the language servers about `realPaths` after a write. Never throws: a failing hook becomes a note in the
 * text. Returns the text to append to the tool output ('' when there is no hook) and the report, if any.
 */
export async function diagnosticsAfterWrite(
  ctx: ToolContext,
  realPaths: string[],
  reportOtherFiles: boolean,
): Promise<{ text: string; report?: DiagnosticsReport }> {
  if (!ctx.diagnostics) return { text: '' };
  try {
    const report = await ctx.diagnostics.afterWrite(realPaths, {
      reportOtherFiles,
      signal: ctx.signal,
      onWaiting: (servers) => ctx.progress?.({ phase: 'diagnostics', servers }),
      onLate: (late) => ctx.progress?.({ phase: 'late-diagnostics', report: late }),
    });
    return { text: report.text, report };
  } catch (e) {
    return { text: `(diagnostics unavailable: ${(e as Error).message})` };
  }
}

/** Tell the language servers a file was read (never waits, never throws). */
export function touchDiagnostics(ctx: ToolContext, realPath: string): void {
  try {
    ctx.diagnostics?.touch(realPath);
  } catch {
    // Warming a server up is best effort; the read itself succeeded.
  }
}

/** Append a diagnostics text to a tool output (blank line between, nothing when empty). */
export function withDiagnostics(output: string, diagnosticsText: string): string {
  return diagnosticsText.trim() === '' ? output : `${output}\n\n${diagnosticsText.trim()}`;
}
