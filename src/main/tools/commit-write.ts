/**
 * The last steps every file-writing tool shares, run inside the file's lock (DESIGN §3):
 * preview diff → permission ask → the path still leads to the same real file inside the root, and the disk still
 * holds what we based the change on → atomic write (mode kept) →
 * the session's observed version becomes the new bytes → commit diff from the bytes really on disk before and
 * after → diagnostics. A failure before the rename leaves the file byte-identical.
 */
import { promises as fsp } from 'node:fs';
import { fail, ok, type Result } from '../../shared/errors';
import type { FileChange } from '../../shared/model';
import { writeFileAtomic } from '../fs/atomic-write';
import { commitDiff } from '../fs/file-diff';
import { recordWrite } from '../fs/observed';
import { decodeBytes } from '../fs/text-file';
import type { ResolvedPath } from '../fs/workspace';
import { askToWrite, diagnosticsAfterWrite, stillInside, unchangedSince } from './file-access';
import type { DiagnosticsReport, ToolContext } from './types';

/** The file as the change found it (`bytes` null: the file does not exist yet). */
export interface Before {
  text: string;
  bytes: Buffer | null;
  mode?: number;
}

/** A landed write: its commit diff, the diagnostics text for the tool output, and the full report (if any). */
export interface Committed {
  diff: FileChange;
  diagnosticsText: string;
  diagnostics?: DiagnosticsReport;
}

/**
 * Write `afterBytes` (decoded: `afterText`) over `before`. Errors: `permission_denied`, `outside_root` (a folder
 * on the path was swapped for an outward symlink while waiting), `stale` (disk changed while waiting),
 * `io_error` (the write failed; file untouched).
 */
export async function commitWrite(
  ctx: ToolContext,
  tool: string,
  r: ResolvedPath,
  before: Before,
  after: { text: string; bytes: Buffer },
  reportOtherFiles: boolean,
): Promise<Result<Committed>> {
  const preview = commitDiff(r.rel, before.text, after.text);
  const allowed = await askToWrite(ctx, tool, r, preview);
  if (!allowed.ok) return allowed;
  const inside = await stillInside(ctx, r);
  if (!inside.ok) return inside;
  const still = await unchangedSince(r, before.bytes);
  if (!still.ok) return still;
  try {
    await writeFileAtomic(r.real, after.bytes, before.mode === undefined ? {} : { mode: before.mode });
  } catch (e) {
    return fail(
      'io_error',
      `Could not write ${r.rel}: ${(e as Error).message}`,
      'Check the file and folder permissions; nothing was changed.',
      {
        path: r.rel,
        errno: (e as NodeJS.ErrnoException).code,
      },
    );
  }
  const written = await fsp.readFile(r.real);
  await recordWrite(ctx, r.real, written);
  const beforeText = before.bytes === null ? '' : textOf(before.bytes, before.text);
  const diff = commitDiff(r.rel, beforeText, textOf(written, after.text));
  const diag = await diagnosticsAfterWrite(ctx, [r.real], reportOtherFiles);
  return ok({ diff, diagnosticsText: diag.text, ...(diag.report ? { diagnostics: diag.report } : {}) });
}

function textOf(bytes: Buffer, fallback: string): string {
  const d = decodeBytes(bytes);
  return d.ok ? d.value.text : fallback;
}
