/**
 * A repository's own git folder: any path with a `.git` segment — the project's `.git/`, a nested repository's
 * `sub/.git/`, a submodule's `.git` file, `.git/modules/…`. Landfall's snapshots never hold these files (the
 * shadow store skips `.git`), so undo cannot restore them, and `.git/config` or `.git/hooks/*` run code on the
 * user's next git command: every write there is asked as `git_dir` (agent/permission/rules.ts), whatever the rules.
 *
 * Hooks can also live OUTSIDE `.git`: the folder a repository's `core.hooksPath` names (husky's `.husky`, read from
 * the project repository's own config file, relative to the work tree) runs on the next `git commit` just like
 * `.git/hooks`, so a write there is a `git_dir` write too (`gitControlled`).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** True when root-relative `rel` (separators `/` or `\`) has a `.git` segment (case-insensitive, as on macOS). */
export function inGitDir(rel: string): boolean {
  return rel.split(/[\\/]+/).some((s) => s.toLowerCase() === '.git');
}

/** The question a write into a git folder asks; `what` names the tool's action ("write .git/config"). */
export function gitDirTitle(what: string): string {
  return `${what} — this is the repository's own git folder (.git) or its hooks folder: it can run code on your next git command, and Landfall's undo cannot restore it`;
}

/** The config file of the repository whose work tree is `root` (`.git/config`, or the folder a `.git` file names). */
async function repoConfigFile(root: string): Promise<string | undefined> {
  const dotGit = path.join(root, '.git');
  try {
    const st = await fsp.stat(dotGit);
    if (st.isDirectory()) return path.join(dotGit, 'config');
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(await fsp.readFile(dotGit, 'utf8'));
    return m?.[1] ? path.join(path.resolve(root, m[1]), 'config') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `core.hooksPath` values of a git config text (git's INI format: `[core]` section, key case-insensitive,
 * value optionally double-quoted, `#`/`;` comments). Every value found counts (the last one is git's, but an earlier
 * one may come back when a line is removed).
 */
export function hooksPathsOf(configText: string): string[] {
  const out: string[] = [];
  let inCore = false;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s"]+)/.exec(line);
    if (section) inCore = (section[1] ?? '').toLowerCase() === 'core';
    const kv = inCore && !section ? /^hookspath\s*=\s*(.*)$/i.exec(line) : null;
    if (!kv) continue;
    let value = (kv[1] ?? '').replace(/\s+[#;].*$/, '').trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== '') out.push(value);
  }
  return out;
}

/**
 * The root-relative folders (`/`-separated, no trailing `/`) the project repository's `core.hooksPath` names, as
 * far as they lie inside `root` (absolute, real). [] when there is no repository or no such setting.
 */
export async function hooksFolders(root: string): Promise<string[]> {
  const file = await repoConfigFile(root);
  if (!file) return [];
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const value of hooksPathsOf(text)) {
    const abs = path.resolve(root, value.replace(/^~(?=\/|$)/, process.env['HOME'] ?? '~'));
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue; // outside the project: not writable
    out.push(rel);
  }
  return out;
}

/** True when root-relative `rel` is one of `folders` or lies below one (case-insensitive, as on macOS). */
export function inFolders(rel: string, folders: string[]): boolean {
  const r = rel
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.')
    .join('/')
    .toLowerCase();
  return folders.some((f) => {
    const low = f.toLowerCase();
    return r === low || r.startsWith(`${low}/`);
  });
}

/**
 * True when a write to root-relative `rel` of the project `root` (absolute, real) is a `git_dir` write: it has a
 * `.git` segment, or it lies in the folder the repository's `core.hooksPath` names (module docstring).
 */
export async function gitControlled(root: string, rel: string): Promise<boolean> {
  return inGitDir(rel) || inFolders(rel, await hooksFolders(root));
}
