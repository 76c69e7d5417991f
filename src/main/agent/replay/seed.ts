/**
 * Seeding a project from a recording's base files (files.jsonl) without ever losing the user's bytes (trial bug:
 * a replay into a folder that already held a different `hydra/utils.py` replaced it silently, and revert could
 * not bring it back because no agent tool wrote it).
 *
 * Rule: a base file is written only where the path is missing. Where a file already holds exactly the base bytes
 * it is left alone. Where anything else is there (other bytes, a folder, a link), seeding is refused as a whole —
 * error `exists` listing every such path, nothing written — unless `force`: then each of them is first copied to
 * `<backupRoot>/<timestamp>/<path>` (in the app's data folder) and the report says where.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { inGitDir } from '../../tools/git-dir';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { CorpusFile } from './corpus';
import { fileBytes, seedEntry, seedProject } from './corpus';
import { readChecked } from '../../fs/read-checked';
import { realRoot } from '../../fs/workspace';

/** How each base file relates to what the project holds now. Paths are the recording's (POSIX, relative). */
export interface SeedPlan {
  /** Missing from the project: will be written. */
  missing: CorpusFile[];
  /** Already there with exactly the base bytes: left alone. */
  same: string[];
  /** Something else is there: seeding would overwrite it. */
  differing: CorpusFile[];
}

/** What a seed did. `backupDir` is set when originals were backed up (force). */
export interface SeedReport {
  written: string[];
  unchanged: string[];
  backedUp: string[];
  backupDir?: string;
}

function lexicallyInside(root: string, rel: string): boolean {
  if (rel === '' || path.isAbsolute(rel)) return false;
  const back = path.relative(root, path.resolve(root, rel));
  return !(back === '' || back.startsWith('..') || path.isAbsolute(back));
}

async function compare(entry: string, want: Buffer): Promise<'missing' | 'same' | 'differing'> {
  let st;
  try {
    st = await fsp.lstat(entry);
  } catch (e) {
    // ENOTDIR: a parent is a file — writing would have to replace it, so it counts as differing
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'differing';
  }
  if (!st.isFile()) return 'differing';
  const read = await readChecked(entry, want.length);
  return read.ok && read.bytes.equals(want) ? 'same' : 'differing';
}

/**
 * Compare the base files with the project under `root` (absolute). Pure: writes nothing. Errors:
 * `invalid_input` when a recorded path is absolute or leaves the project folder by its letters; `outside_root`
 * when it leaves it through a symbolic link (a folder on the way that leads outside).
 */
export async function planSeed(root: string, files: CorpusFile[]): Promise<Result<SeedPlan>> {
  const plan: SeedPlan = { missing: [], same: [], differing: [] };
  const rootReal = await realRoot(root);
  for (const f of files) {
    if (!lexicallyInside(rootReal, f.path))
      return fail(
        'invalid_input',
        `The recording's base file ${f.path} lies outside the project folder.`,
        'Fix files.jsonl: paths are relative to the project root.',
      );
    // a repository's own git folder is never seeded (its config and hooks run code; tools/git-dir.ts)
    if (inGitDir(f.path) || inGitDir(path.relative(rootReal, path.resolve(rootReal, f.path))))
      return fail(
        'invalid_input',
        `The recording's base file ${f.path} lies in a .git folder, which replay never writes.`,
        'Remove .git paths from files.jsonl.',
      );
    const at = await seedEntry(rootReal, f.path);
    if (!at.ok) return at;
    const how = await compare(at.value.entry, fileBytes(f));
    if (how === 'missing') plan.missing.push(f);
    else if (how === 'same') plan.same.push(f.path);
    else plan.differing.push(f);
  }
  return ok(plan);
}

/** The refusal for files seeding would overwrite: error `exists`, `data.files` lists them. */
export function overwriteRefusal(files: string[], forceHint: string): Result<never> {
  const shown = files.slice(0, 10).join(', ') + (files.length > 10 ? `, … (${files.length} in all)` : '');
  return fail(
    'exists',
    `The project already holds ${files.length} file(s) that differ from the recording's base: ${shown}. Nothing was written.`,
    forceHint,
    { files },
  );
}

/** The next step the `exists` refusal names unless the caller names its own (the command line names its flags). */
export const SEED_REFUSAL_HINT =
  "Replay into a folder without these files (or with the recording's versions), or move them aside first.";

/**
 * Seed `root` from `files` by the rule above. `backupRoot` is the folder backups go under (force only); the
 * write's journal goes into `journalDir`. `refusalHint` is the hint of the `exists` refusal.
 * Errors: `invalid_input` (path outside the project), `outside_root` (a folder on the way is a link out of it),
 * `exists` (differing files, no force). Throws fs errors (EACCES, ENOSPC) and LandfallFailure from the write as
 * bugs of the environment; the write itself is one transaction (src/main/fs/transaction.ts): all or nothing.
 */
export async function seedSafely(
  root: string,
  files: CorpusFile[],
  options: { force?: boolean; backupRoot: string; journalDir: string; refusalHint?: string },
): Promise<Result<SeedReport>> {
  const plan = await planSeed(root, files);
  if (!plan.ok) return plan;
  const { missing, same, differing } = plan.value;
  if (differing.length > 0 && !options.force) {
    return overwriteRefusal(
      differing.map((f) => f.path),
      options.refusalHint ?? SEED_REFUSAL_HINT,
    );
  }
  let backupDir: string | undefined;
  if (differing.length > 0) {
    backupDir = path.join(
      options.backupRoot,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`,
    );
    const rootReal = await realRoot(root);
    for (const f of differing) {
      const at = await seedEntry(rootReal, f.path);
      if (!at.ok) return at;
      const entry = at.value.entry;
      const dest = path.join(backupDir, f.path);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      // a parent that is a file (ENOTDIR) throws here, before anything was written
      await fsp.cp(entry, dest, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
      // A folder where a base file goes is moved out of the way (it is backed up); a link is replaced by the
      // write itself (never followed).
      const st = await fsp.lstat(entry).catch(() => undefined);
      if (st?.isDirectory()) await fsp.rm(entry, { recursive: true, force: true });
    }
  }
  await seedProject(root, [...missing, ...differing], options.journalDir);
  return ok({
    written: [...missing, ...differing].map((f) => f.path),
    unchanged: same,
    backedUp: differing.map((f) => f.path),
    ...(backupDir ? { backupDir } : {}),
  });
}
