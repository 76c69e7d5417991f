/**
 * The disk side of the tool-output cap (output-cap.ts): the whole output of a cut goes to a file in the data
 * folder's scratch folder, and the model reads head + a note + tail. The note gives the exact counts left out and
 * the file's path; the read tool may open exactly such files without a permission prompt (`savedOutputFile`
 * decides which: a regular file directly in the real scratch folder whose name this module gave it — nothing else
 * outside the project becomes readable). Files older than 7 days are removed (`sweepSavedOutputs`, called when the
 * service opens and every hour).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write';
import { cutOutput, DEFAULT_CAP_LIMITS, type CapLimits, type OutputCut } from './output-cap';

/** Saved outputs older than this are removed (ms). */
export const SAVED_OUTPUT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** How often a running app sweeps (ms). */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

const NAME = /^tool-[a-z0-9_]{1,40}-\d{13}-[0-9a-f]{8}\.txt$/;

let privateDir: string | undefined;

/**
 * The folder saved outputs go to: `scratchDir` (the data folder's `scratch`), or — when a caller has no data
 * folder (command-line tool calls) — a private folder made once per process in the OS temp dir (mode 0700, so no
 * other user can plant a file the read tool would then open).
 */
export function outputDir(scratchDir: string | undefined): string {
  if (scratchDir !== undefined) return scratchDir;
  privateDir ??= mkdtempSync(path.join(os.tmpdir(), 'landfall-output-'));
  return privateDir;
}

function group(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The note between head and tail: exact counts, what is shown, where the whole output is and how to read it
 * (`file` undefined: saving it failed with `saveError`, and the note says so).
 */
export function cutNote(cut: OutputCut, file: string | undefined, saveError?: string): string {
  const shown: string[] = [];
  if (cut.headLines > 0) shown.push(`lines 1–${group(cut.headLines)} above`);
  if (cut.headPartial) shown.push(`the start of line ${group(cut.headLines + 1)} above`);
  const firstTail = cut.totalLines - cut.tailLines + 1;
  if (cut.tailPartial) shown.push(`the end of line ${group(firstTail - 1)} below`);
  if (cut.tailLines > 0) shown.push(`lines ${group(firstTail)}–${group(cut.totalLines)} below`);
  return (
    `[output cut: ${group(cut.omittedLines)} lines (${group(cut.omittedBytes)} bytes) left out of ` +
    `${group(cut.totalLines)} lines (${group(cut.totalBytes)} bytes); shown: ${shown.join(', ') || 'nothing'}.\n` +
    (file !== undefined
      ? ` The whole output is in ${file} — read it with the read tool (offset/limit), or search it with bash grep.]`
      : ` The whole output could not be saved (${saveError ?? 'unknown error'}); run the command again narrowed down.]`)
  );
}

/** Write `text` (UTF-8) atomically to a new file named for `tool` in `dir`; answers its absolute path. */
export async function saveFullOutput(dir: string, tool: string, text: string): Promise<string> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const safe =
    tool
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 40) || 'tool';
  const file = path.join(dir, `tool-${safe}-${Date.now()}-${randomBytes(4).toString('hex')}.txt`);
  await writeFileAtomic(file, Buffer.from(text, 'utf8'));
  return file;
}

export interface CappedOutput {
  /** What the model reads: the output whole, or head + note + tail. */
  text: string;
  /** The cut and the saved file (undefined when saving failed), when the output was over a cap. */
  cut?: OutputCut & { file: string | undefined };
}

/**
 * Cap one tool output (the rule in output-cap.ts) and save the whole of a cut one. `tooLong(preview)` may ask
 * for a smaller preview (the agent passes a token budget, so a 2 MB log reaches the model as a few thousand
 * tokens whatever its bytes look like): the preview budget shrinks in proportion up to 4 times. Never throws: a
 * failed save is said in the note (and `cut.file` is undefined); the preview is sent all the same.
 */
export async function capOutput(
  text: string,
  options: { dir: string; tool: string; limits?: CapLimits; tooLong?: (preview: string) => number | undefined },
): Promise<CappedOutput> {
  let limits = options.limits ?? DEFAULT_CAP_LIMITS;
  let cut = cutOutput(text, limits);
  if (cut === undefined) return { text };
  let file: string | undefined;
  let saveError: string | undefined;
  try {
    file = await saveFullOutput(options.dir, options.tool, text);
  } catch (e) {
    saveError = e instanceof Error ? e.message : String(e);
  }
  let preview = render(cut, file, saveError);
  for (let i = 0; i < 4; i++) {
    const shrink = options.tooLong?.(preview);
    if (shrink === undefined) break;
    limits = { ...limits, previewBytes: Math.max(1, Math.floor(limits.previewBytes * shrink)) };
    cut = cutOutput(text, limits) as OutputCut;
    preview = render(cut, file, saveError);
  }
  return { text: preview, cut: { ...cut, file } };
}

function render(cut: OutputCut, file: string | undefined, saveError: string | undefined): string {
  const head = cut.head === '' || cut.head.endsWith('\n') ? cut.head : `${cut.head}\n`;
  return `${head}${cutNote(cut, file, saveError)}\n${cut.tail}`;
}

/**
 * The real path of `given` when it names a saved output in `dir` (a regular file, directly in the real `dir`,
 * named by `saveFullOutput`, with no second hard link, reached without a symlink anywhere below `dir`), else undefined. The read tool
 * opens such a file without the project boundary and the permission gate asks nothing for it.
 */
export async function savedOutputFile(dir: string, given: string): Promise<string | undefined> {
  if (!path.isAbsolute(given)) return undefined;
  try {
    const realDir = await fsp.realpath(dir);
    const real = await fsp.realpath(given);
    if (path.dirname(real) !== realDir || !NAME.test(path.basename(real))) return undefined;
    const lexical = path.resolve(given);
    if (lexical !== real && path.join(realDir, path.basename(lexical)) !== real) return undefined;
    const st = await fsp.lstat(real);
    // A hard link planted under our name would lead to some other file's bytes: only single-link files count.
    return st.isFile() && st.nlink === 1 ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Remove saved outputs in `dir` last changed more than `maxAgeMs` before `now` (ms); answers how many. */
export async function sweepSavedOutputs(
  dir: string,
  now = Date.now(),
  maxAgeMs = SAVED_OUTPUT_MAX_AGE_MS,
): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!NAME.test(name) && !name.startsWith('bash-')) continue;
    const file = path.join(dir, name);
    try {
      const st = await fsp.lstat(file);
      if (!st.isFile() || now - st.mtimeMs <= maxAgeMs) continue;
      await fsp.unlink(file);
      removed++;
    } catch {
      // Gone meanwhile, or not ours to remove: the next sweep tries again.
    }
  }
  return removed;
}

/**
 * Sweep `dir` now and every SWEEP_EVERY_MS while the app runs (the timer never keeps the process alive); answers
 * the function that stops it. Sweep errors are ignored: a file left is removed by a later sweep.
 */
export function startOutputSweeper(dir: string, everyMs = SWEEP_EVERY_MS): () => void {
  void sweepSavedOutputs(dir).catch(() => undefined);
  const timer = setInterval(() => void sweepSavedOutputs(dir).catch(() => undefined), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
