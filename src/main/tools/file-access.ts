/**
 * What read, edit and write share around the file layer: resolving a tool's path inside the workspace, asking
 * permission with a preview diff, re-checking the disk right before writing (the user may have saved while a
 * permission prompt was open), and asking the language servers for diagnostics after a write.
 */
import { promises as fsp } from 'node:fs';
import { fail, ok, type LandfallError, type Result } from '../../shared/errors';
import type { FileChange } from '../../shared/model';
import { resolveInRoot, type ResolvedPath } from '../fs/workspace';
import { toolFailure, type DiagnosticsReport, type ToolContext, type ToolFailure } from './types';

/** Resolve a tool's `filePath` against the context's root (errors: `outside_root`, `invalid_input`). */
export function resolveToolPath(ctx: ToolContext, filePath: string): Promise<Result<ResolvedPath>> {
  return resolveInRoot(ctx.root, filePath);
}

/** A tool failure from an error (shorthand for the tools). */
export function failed(error: LandfallError): ToolFailure {
  return toolFailure(error);
}

/**
 * Ask `ctx.ask` whether `tool` may write `resolved` (preview diff attached). No `ask` in the context means
 * allowed. Error: `permission_denied` with the user's reason as the hint.
 */
export async function askToWrite(
  ctx: ToolContext,
  tool: string,
  resolved: ResolvedPath,
  preview: FileChange,
): Promise<Result<void>> {
  if (!ctx.ask) return ok(undefined);
  const answer = await ctx.ask({
    tool,
    permission: 'edit',
    patterns: [resolved.rel],
    title: `${tool} ${resolved.rel}`,
    preview: [preview],
  });
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
  let now: Buffer | null;
  try {
    now = await fsp.readFile(resolved.real);
  } catch {
    now = null;
  }
  const same = expected === null ? now === null : now !== null && now.equals(expected);
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
    const report = await ctx.diagnostics.afterWrite(realPaths, { reportOtherFiles, signal: ctx.signal });
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
