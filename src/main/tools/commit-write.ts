/**
 * The last steps every file-writing tool shares, run inside the file's lock (DESIGN §3):
 * preview diff → permission ask → the path still leads to the same real file inside the root, and the disk still
 * holds what we based the change on → the work-tree transaction (src/main/fs/transaction.ts: temp beside, fsync,
 * rename through pinned folders, journaled; mode and owner kept) → the session's observed version becomes the
 * new bytes → commit diff from the bytes before and the bytes that landed → diagnostics. A failure leaves the
 * file byte-identical.
 */
import { ok, type Result } from '../../shared/errors';
import type { FileChange } from '../../shared/model';
import { writeProject } from '../fs/project-write';
import { commitDiff } from '../fs/file-diff';
import { recordWrite } from '../fs/observed';
import { decodeBytes } from '../fs/text-file';
import type { ResolvedPath } from '../fs/workspace';
import { askToWrite, diagnosticsAfterWrite, stillInside, unchangedSince } from './file-access';
import type { DiagnosticsReport } from '../lsp/hook';
import type { ToolContext } from './types';

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
  const put = {
    kind: 'file' as const,
    bytes: after.bytes,
    ...(before.mode === undefined ? {} : { perm: before.mode }),
  };
  const wrote = await writeProject(ctx.root, [{ rel: r.rel, put }], { journalDir: ctx.journalDir, label: tool });
  if (!wrote.ok) return wrote;
  // What landed is exactly these bytes (one rename put them there); reading the path again could follow a
  // folder swapped meanwhile, so the commit diff is made from them.
  const written = after.bytes;
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
