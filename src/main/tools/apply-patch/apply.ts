/**
 * applyPatch: parse → check paths → lock → read → check freshness → plan → approve → write as one transaction.
 *
 *   1. parse (pure, parse.ts); every header path is checked lexically (absolute or `..` above the root →
 *      `outside_root`) before the file system is consulted at all, then resolved with symlinks followed
 *      (src/main/fs/workspace.ts) — still before any file is read;
 *   2. the locks of every target are taken (withFileLocks: sorted order, the same per-file locks edit and write
 *      use), so nothing this process runs can change the files between reading and writing;
 *   3. sources are read (`missing_file` when absent or not a regular file), Add and Move targets must not exist
 *      (`exists`: never overwrite), and with a tool context the session's observed versions are honoured
 *      (`not_observed` / `stale`, checked before matching so "the file changed" is never reported as no_match);
 *   4. the plan (plan.ts) computes every file's new text; texts are encoded back in each file's own encoding
 *      (a BOM stays); commit diffs are computed from the real before/after;
 *   5. `approve` (the permission ask) sees every file's diff; every path is resolved again (a folder swapped for
 *      an outward symlink while the prompt was open is `outside_root`); then the transaction (transaction.ts)
 *      writes all or nothing, and the session's observed versions become what was written.
 */
import { promises as fsp } from 'node:fs';
import { fail, ok, type Result } from '../../../shared/errors';
import {
  checkFresh,
  encodeText,
  readTextFile,
  realRoot,
  recordWrite,
  resolveInRoot,
  withFileLocks,
  type ResolvedPath,
  type TextFile,
} from '../../fs';
import type { ToolContext } from '../types';
import { proveEncoding } from '../../fs/encoding-proof';
import { planDiff } from './commit-diff';
import { parsePatch } from '../../engine/patch/parse';
import { normalisePatchPath } from '../../engine/patch/paths';
import { planPatch } from '../../engine/patch/plan';
import { patchResult, type PatchFileResult, type PatchResult } from './report';
import type { TxHook } from '../../fs/transaction';
import { runTransaction, type FileStep } from './transaction';
import type { ParsedPatch, PatchPlan, PlannedFile } from '../../engine/patch/types';

export interface ApplyPatchOptions {
  /** The project root (realpath'd here). */
  root: string;
  /** A tool context: when given, observed versions are checked and updated (DESIGN §3). */
  ctx?: ToolContext;
  /** Called inside the locks with every file (its diff in `change`) before anything is written; a failure aborts the patch. */
  approve?: (files: PatchFileResult[]) => Promise<Result<void>>;
  /** Called inside the locks after the patch landed, with the absolute paths of files that now exist changed. */
  onLanded?: (result: PatchResult, writtenPaths: string[]) => Promise<void>;
  /** Folder for the write journal (the app's data folder; `ctx.journalDir` when a context is given). */
  journalDir?: string;
  /** Fault injection for tests: called before each stage, rename and removal (src/main/fs/transaction.ts). */
  hook?: TxHook;
}

type Resolved = Map<string, ResolvedPath>;

/** A source file as read, plus the text of the symlink the patch named it by (if it was one). */
type SourceFile = TextFile & { link?: string };

/** The link text when the path the patch named is itself a symlink (its last component). */
async function linkText(abs: string): Promise<string | undefined> {
  try {
    return (await fsp.lstat(abs)).isSymbolicLink() ? await fsp.readlink(abs) : undefined;
  } catch {
    return undefined;
  }
}

function outsideRoot(raw: string, why: string): Result<never> {
  return fail('outside_root', `${raw} ${why}.`, 'Use a path relative to the project root that stays inside it.', {
    path: raw,
  });
}

/** Lexical check of every header path, then resolution with symlinks followed. Reads no file. */
async function resolvePaths(patch: ParsedPatch, rootReal: string): Promise<Result<Resolved>> {
  const raws: string[] = [];
  for (const op of patch.operations) {
    raws.push(op.rawPath);
    if (op.kind === 'update' && op.rawMovePath !== undefined) raws.push(op.rawMovePath);
  }
  for (const raw of raws) {
    const n = normalisePatchPath(raw);
    if (n.absolute) return outsideRoot(raw, 'is an absolute path');
    if (n.escapes) return outsideRoot(raw, 'leads outside the project root');
  }
  const resolved: Resolved = new Map();
  const byReal = new Map<string, string>();
  for (const raw of raws) {
    const key = normalisePatchPath(raw).path;
    const r = await resolveInRoot(rootReal, key);
    if (!r.ok)
      return r.error.code === 'outside_root'
        ? outsideRoot(raw, `resolves outside the project root (${String(r.error.data?.real ?? 'symlink')})`)
        : r;
    const other = byReal.get(r.value.real);
    if (other !== undefined && other !== key) {
      return fail(
        'parse',
        `${other} and ${key} are the same file (${r.value.rel}); two operations target it.`,
        'Merge all changes to one file into a single Update File operation.',
      );
    }
    byReal.set(r.value.real, key);
    resolved.set(key, r.value);
  }
  return ok(resolved);
}

/**
 * Right before the transaction: every path still leads to the real path it was checked as. The permission prompt
 * may stay open for minutes; a folder swapped meanwhile for a symlink out of the project must not be written
 * through. Error: `outside_root`.
 */
async function stillResolved(resolved: Resolved, rootReal: string): Promise<Result<void>> {
  for (const [key, before] of resolved) {
    const again = await resolveInRoot(rootReal, before.abs);
    if (again.ok && again.value.real === before.real) continue;
    const now = again.ok ? again.value.real : String(again.error.data?.real ?? again.error.message);
    return outsideRoot(
      key,
      `no longer leads to the file that was checked (it now resolves to ${now}); a folder on its path was replaced while the patch waited, and nothing was written`,
    );
  }
  return ok(undefined);
}

/** Read every update/delete source; check that Add and Move targets are free. */
async function readSources(patch: ParsedPatch, resolved: Resolved): Promise<Result<Map<string, SourceFile>>> {
  const files = new Map<string, SourceFile>();
  for (const op of patch.operations) {
    const target = resolved.get(op.path) as ResolvedPath;
    if (op.kind === 'add') {
      if (target.exists)
        return fail(
          'exists',
          `Add File ${op.rawPath} (patch line ${op.patchLine}): the file already exists.`,
          `Use "*** Update File: ${op.rawPath}" to change it (read it first).`,
          { file: op.path, patchLine: op.patchLine },
        );
      continue;
    }
    if (
      op.kind === 'update' &&
      op.movePath !== undefined &&
      op.movePath !== op.path &&
      (resolved.get(op.movePath) as ResolvedPath).exists
    ) {
      return fail(
        'exists',
        `Move to ${op.rawMovePath} (patch line ${op.patchLine}): the destination already exists.`,
        'Move to a path that is free, or delete the destination first in a separate step.',
        { file: op.movePath, patchLine: op.patchLine },
      );
    }
    const kind = op.kind === 'delete' ? 'Delete' : 'Update';
    const read = target.exists ? await readTextFile(target.real) : undefined;
    if (
      !read ||
      (!read.ok &&
        (read.error.code === 'file_not_found' ||
          read.error.code === 'is_directory' ||
          read.error.data?.notRegular !== undefined))
    ) {
      return fail(
        'missing_file',
        `${kind} File ${op.rawPath} (patch line ${op.patchLine}): the file does not exist or is not a regular file.`,
        `Check the path (list or glob), or use "*** Add File: ${op.rawPath}" to create it.`,
        { file: op.path, patchLine: op.patchLine },
      );
    }
    if (!read.ok)
      return fail(read.error.code, `${kind} File ${op.rawPath}: ${read.error.message}`, read.error.hint, {
        ...read.error.data,
        file: op.path,
      });
    const link = op.kind === 'update' && op.movePath === undefined ? undefined : await linkText(target.abs);
    files.set(op.path, link === undefined ? read.value : { ...read.value, link });
  }
  return ok(files);
}

/** With a session: every update/delete source must be observed and unchanged since (DESIGN §3). */
async function checkObserved(
  ctx: ToolContext | undefined,
  files: Map<string, SourceFile>,
  resolved: Resolved,
): Promise<Result<void>> {
  if (!ctx) return ok(undefined);
  for (const [path, file] of files) {
    const fresh = await checkFresh(ctx, resolved.get(path) as ResolvedPath, file.bytes);
    if (!fresh.ok) return fresh;
  }
  return ok(undefined);
}

interface Staged {
  steps: FileStep[];
  results: PatchFileResult[];
}

/** Encode one planned file into transaction steps (a move is a write of the destination and a removal). */
function stageFile(f: PlannedFile, resolved: Resolved, files: Map<string, SourceFile>, staged: Staged): Result<void> {
  const src = resolved.get(f.path) as ResolvedPath;
  const source = files.get(f.path);
  const original = source ? { bytes: source.bytes, mode: source.mode } : null;
  const dest = f.kind === 'move' ? (resolved.get(f.movePath as string) as ResolvedPath) : src;
  if (f.after !== null) {
    const bytes = encodeText(f.after, source?.encoding ?? { encoding: 'utf8', bom: false });
    if (!bytes.ok)
      return fail(bytes.error.code, `${dest.rel}: ${bytes.error.message}`, bytes.error.hint, bytes.error.data);
    // a legacy file of unsure encoding takes only text its own bytes vouch for (fs/encoding-proof.ts)
    const vouched = source ? proveEncoding(source.bytes, bytes.value, source.encoding, dest.rel) : ok(undefined);
    if (!vouched.ok) return vouched;
    const unchanged = f.kind === 'update' && original !== null && Buffer.from(bytes.value).equals(original.bytes);
    if (!unchanged)
      staged.steps.push({
        real: dest.real,
        rel: dest.rel,
        bytes: bytes.value,
        mode: source?.mode,
        original: f.kind === 'move' ? null : original,
      });
  }
  if (f.kind === 'delete' || f.kind === 'move') {
    // Deleting (or moving away) a path that is a symlink removes the link, never the file it points to.
    const link = source?.link;
    staged.steps.push(
      link === undefined
        ? { real: src.real, rel: src.rel, bytes: null, original }
        : { real: src.abs, rel: f.path, bytes: null, original: null, link },
    );
  }
  const change = planDiff(dest.rel, f.before ?? '', f.after ?? '', f.edits);
  staged.results.push(
    f.kind === 'move'
      ? { kind: 'move', path: f.path, movePath: f.movePath as string, change }
      : { kind: f.kind, path: f.path, change },
  );
  return ok(undefined);
}

function stage(plan: PatchPlan, resolved: Resolved, files: Map<string, SourceFile>): Result<Staged> {
  const staged: Staged = { steps: [], results: [] };
  for (const f of plan.files) {
    const r = stageFile(f, resolved, files, staged);
    if (!r.ok) return r;
  }
  return ok(staged);
}

/** Steps 3–5 of the module docstring; runs while the locks are held. */
async function landLocked(
  patch: ParsedPatch,
  resolved: Resolved,
  rootReal: string,
  options: ApplyPatchOptions,
): Promise<Result<PatchResult>> {
  const files = await readSources(patch, resolved);
  if (!files.ok) return files;
  const fresh = await checkObserved(options.ctx, files.value, resolved);
  if (!fresh.ok) return fresh;
  const texts = new Map([...files.value].map(([p, f]) => [p, f.text] as const));
  const plan = planPatch(patch, texts);
  if (!plan.ok) return plan;
  const staged = stage(plan.value, resolved, files.value);
  if (!staged.ok) return staged;
  if (options.approve) {
    const approved = await options.approve(staged.value.results);
    if (!approved.ok) return approved;
  }
  const unmoved = await stillResolved(resolved, rootReal);
  if (!unmoved.ok) return unmoved;
  const written = await runTransaction(staged.value.steps, {
    root: rootReal,
    journalDir: options.journalDir ?? options.ctx?.journalDir,
    hook: options.hook,
  });
  if (!written.ok) return written;
  const { ctx } = options;
  const present: string[] = [];
  for (const step of staged.value.steps) {
    if (step.bytes === null) {
      if (step.link === undefined) ctx?.observed.forget(ctx.sessionId, step.real);
    } else {
      present.push(step.real);
      if (ctx) await recordWrite(ctx, step.real, step.bytes);
    }
  }
  const result = patchResult(
    staged.value.results,
    staged.value.steps.map((s) => s.rel),
  );
  if (options.onLanded) await options.onLanded(result, present);
  return ok(result);
}

/**
 * Apply a patch (the whole tool input, codex/opencode envelope) to the project at `options.root`, all or nothing.
 * Returns the files with their change kind and commit diff. Errors: `parse`, `outside_root`, `missing_file`,
 * `exists`, `no_match`, `ambiguous`, and with a context `not_observed` / `stale`; also `binary`, `too_large`,
 * `unencodable` (a source that cannot be patched as text), `io_error` (a write failed: everything was rolled back),
 * or whatever `approve` answered (e.g. `permission_denied`). On any failure no byte on disk changed.
 */
export async function applyPatch(text: string, options: ApplyPatchOptions): Promise<Result<PatchResult>> {
  const parsed = parsePatch(text);
  if (!parsed.ok) return parsed;
  let rootReal: string;
  try {
    rootReal = await realRoot(options.root);
  } catch {
    return fail(
      'file_not_found',
      `The project root ${options.root} does not exist.`,
      'Open an existing project folder.',
    );
  }
  const resolved = await resolvePaths(parsed.value, rootReal);
  if (!resolved.ok) return resolved;
  const reals = [...resolved.value.values()].map((r) => r.real);
  return withFileLocks(reals, () => landLocked(parsed.value, resolved.value, rootReal, options));
}
