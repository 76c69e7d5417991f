/**
 * A workspace walker for list, glob and grep that respects ignore rules like git does: `.gitignore` files at
 * every level (patterns relative to their folder), `.git/info/exclude`, and `.git` itself. Symlinks are listed
 * but never descended into, so a walk cannot leave the workspace (fixtures/bugs/README.md B44) — and every folder is listed from a checked
 * descriptor (src/main/fs/read-checked.ts), so one swapped for an outward link while the walk runs is skipped, not
 * listed. Breadth-first, names sorted, so results are stable and shallow files come first.
 */
import { readChecked, readDirChecked } from '../fs/read-checked';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** One walked entry; `rel` is root-relative with '/' separators. */
export interface WalkEntry {
  rel: string;
  abs: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
}

interface Rules {
  /** Folder (root-relative, '' for the root) whose .gitignore these are. */
  base: string;
  ig: Ignore;
}

/** Largest ignore file read (bytes); a bigger one (or a pseudo-file posing as one) is not read at all. */
const MAX_RULES_BYTES = 1024 * 1024;

async function readRules(file: string): Promise<string | undefined> {
  const r = await readChecked(file, MAX_RULES_BYTES);
  return r.ok ? r.bytes.toString('utf8') : undefined;
}

function ignoredBy(stack: Rules[], rel: string, isDir: boolean): boolean {
  for (const rules of stack) {
    const sub = rules.base === '' ? rel : rel.slice(rules.base.length + 1);
    if (rules.ig.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/** The rules in force at the root: .git/info/exclude and the root .gitignore. */
async function rootRules(root: string): Promise<Rules[]> {
  const ig = ignore();
  for (const f of [path.join(root, '.git', 'info', 'exclude'), path.join(root, '.gitignore')]) {
    const text = await readRules(f);
    if (text !== undefined) ig.add(text);
  }
  return [{ base: '', ig }];
}

/**
 * Walk `start` (an absolute folder inside `root`; both real paths) yielding files, folders and symlinks that
 * are not ignored. `maxDepth` counts folders below `start` (default unlimited); `skipDefault` (default true) lists
 * but does not enter dependency/build folders (DEFAULT_SKIPPED) even when no .gitignore names them.
 */
export async function* walk(
  root: string,
  start: string,
  options: { maxDepth?: number; skipDefault?: boolean } = {},
): AsyncGenerator<WalkEntry> {
  const base = await rootRules(root);
  // Rules from .gitignore files between the root and `start` apply as well.
  const startRel = path.relative(root, start).split(path.sep).join('/');
  let stack = base;
  if (startRel !== '') {
    const parts = startRel.split('/');
    for (let i = 1; i < parts.length; i++) stack = await withFolderRules(root, stack, parts.slice(0, i).join('/'));
  }
  const queue: Array<{ rel: string; depth: number; stack: Rules[] }> = [{ rel: startRel, depth: 0, stack }];
  while (queue.length > 0) {
    const dir = queue.shift() as { rel: string; depth: number; stack: Rules[] };
    const rules = dir.rel === '' ? dir.stack : await withFolderRules(root, dir.stack, dir.rel);
    // Listed from the folder that was opened and checked: a folder swapped for a link meanwhile is skipped.
    const entries = await readDirChecked(path.join(root, dir.rel));
    if (!entries) continue;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name === '.git') continue;
      const rel = dir.rel === '' ? e.name : `${dir.rel}/${e.name}`;
      const kind = e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other';
      if (ignoredBy(rules, rel, kind === 'dir')) continue;
      yield { rel, abs: path.join(root, rel), kind };
      const descend = !(options.skipDefault ?? true) || !DEFAULT_SKIPPED.has(e.name);
      if (kind === 'dir' && descend && (options.maxDepth === undefined || dir.depth < options.maxDepth)) {
        queue.push({ rel, depth: dir.depth + 1, stack: rules });
      }
    }
  }
}

async function withFolderRules(root: string, stack: Rules[], rel: string): Promise<Rules[]> {
  const text = await readRules(path.join(root, rel, '.gitignore'));
  if (text === undefined) return stack;
  return [...stack, { base: rel, ig: ignore().add(text) }];
}

/** Folders skipped even without a .gitignore (dependency and build output trees). */
export const DEFAULT_SKIPPED = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  '.next',
  '.venv',
  '__pycache__',
  'target',
  '.cache',
]);
