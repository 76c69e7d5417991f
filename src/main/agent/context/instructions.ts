/**
 * The project's instruction files, as the leading agents find them (opencode, Codex and Claude Code read the same
 * names): AGENTS.md at every level from the repository's top folder down to the working directory (outermost
 * first), CLAUDE.md where a level has no AGENTS.md, and a global AGENTS.md in Landfall's data folder before them
 * all. A sub-folder's own AGENTS.md is added later, the first time a tool reads a file under it (`nestedLevels`).
 *
 * Each file is capped at INSTRUCTION_CAP_BYTES, cut at a line boundary; the cut is stated in the text the model
 * reads and in what the user is shown (`cut`), never silent.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Most bytes of one instruction file the model is given (32 KiB ≈ 8,000 tokens); the rest is named, not sent. */
export const INSTRUCTION_CAP_BYTES = 32 * 1024;

/** Names looked for at each level, in order of preference (the first one present is used). */
export const INSTRUCTION_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

/** One level's instruction file as read: its text (capped), its size, and what was cut. */
export interface InstructionFile {
  /** Absolute path of the file read. */
  path: string;
  /** Text given to the model (at most INSTRUCTION_CAP_BYTES of UTF-8, whole lines). */
  text: string;
  /** Size of the whole file in bytes. */
  bytes: number;
  /** Bytes left out (0 when the whole file is given). */
  cutBytes: number;
}

/** What reading a level found: a file, nothing there, or a file that could not be read (and why). */
export type LevelRead =
  { kind: 'file'; file: InstructionFile } | { kind: 'none' } | { kind: 'unreadable'; why: string };

/** `bytes` cut to at most `cap` bytes at the last line break before it (or at `cap` when one line is longer). */
export function capText(bytes: Buffer, cap = INSTRUCTION_CAP_BYTES): { text: string; cutBytes: number } {
  if (bytes.length <= cap) return { text: bytes.toString('utf8'), cutBytes: 0 };
  let end = bytes.lastIndexOf(0x0a, cap - 1) + 1;
  if (end <= 0) {
    end = cap;
    while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--; // never split a UTF-8 sequence
  }
  return { text: bytes.subarray(0, end).toString('utf8'), cutBytes: bytes.length - end };
}

/** Read the instruction file of folder `dir` (AGENTS.md, else CLAUDE.md). Never throws. */
export function readLevel(dir: string, names: readonly string[] = INSTRUCTION_NAMES): LevelRead {
  for (const name of names) {
    const file = path.join(dir, name);
    let bytes: Buffer;
    try {
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      bytes = readFileSync(file);
    } catch (e) {
      return { kind: 'unreadable', why: `${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const { text, cutBytes } = capText(bytes);
    return { kind: 'file', file: { path: file, text, bytes: bytes.length, cutBytes } };
  }
  return { kind: 'none' };
}

/**
 * The folders whose instruction files belong in the baseline, outermost first: from the top of the git
 * repository holding `cwd` (the nearest folder with a `.git` entry) down to `cwd`; just `cwd` when it is not in
 * a repository. `cwd` is an absolute real path.
 */
export function baselineLevels(cwd: string): string[] {
  const up: string[] = [];
  for (let dir = cwd; ;) {
    up.push(dir);
    if (existsSync(path.join(dir, '.git'))) return up.reverse();
    const parent = path.dirname(dir);
    if (parent === dir) return [cwd];
    dir = parent;
  }
}

/**
 * Folders strictly below `root` down to the folder holding `file` (outermost first): the levels whose own
 * AGENTS.md applies once a tool read `file`. Empty for a file outside `root` or directly in it.
 */
export function nestedLevels(root: string, file: string): string[] {
  const abs = path.resolve(root, file);
  const rel = path.relative(root, path.dirname(abs));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const parts = rel.split(path.sep);
  return parts.map((_, i) => path.join(root, ...parts.slice(0, i + 1)));
}

/** The text the model reads for one instruction file (the cut, when there is one, said in the last line). */
export function renderInstruction(f: InstructionFile): string {
  const cut =
    f.cutBytes > 0
      ? `\n[Cut: the first ${f.bytes - f.cutBytes} of ${f.bytes} bytes are shown (cap ${INSTRUCTION_CAP_BYTES} bytes per file); read ${f.path} for the rest.]`
      : '';
  return `<instructions file="${f.path}">\n${f.text.replace(/\n$/, '')}${cut}\n</instructions>`;
}
