/**
 * A repository's own git folder: any path with a `.git` segment — the project's `.git/`, a nested repository's
 * `sub/.git/`, a submodule's `.git` file, `.git/modules/…`. Landfall's snapshots never hold these files (the
 * shadow store skips `.git`), so undo cannot restore them, and `.git/config` or `.git/hooks/*` run code on the
 * user's next git command: every write there is asked as `git_dir` (agent/permission/rules.ts), whatever the rules.
 *
 * Hooks can also live OUTSIDE `.git`: the folder `core.hooksPath` names (husky's `.husky`, relative to the work
 * tree) runs on the next `git commit` just like `.git/hooks`, so a write there is a `git_dir` write too
 * (`gitControlled`). The setting is read as git reads it, from every place git reads it (the repository's config,
 * the global and system ones, includes, conditional includes, the environment: `hooksFolders`).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../proc/child-env';

/** True when root-relative `rel` (separators `/` or `\`) has a `.git` segment (case-insensitive, as on macOS). */
export function inGitDir(rel: string): boolean {
  return rel.split(/[\\/]+/).some((s) => s.toLowerCase() === '.git');
}

/** The question a write into a git folder asks; `what` names the tool's action ("write .git/config"). */
export function gitDirTitle(what: string): string {
  return `${what} — this is the repository's own git folder (.git) or its hooks folder: it can run code on your next git command, and Landfall's undo cannot restore it`;
}

/**
 * The repository that holds folder `dir` (absolute): the nearest folder at or above it with a `.git` folder or
 * file, as git finds it — also above the project root, when the project is a folder of a larger repository.
 */
async function repositoryOf(dir: string): Promise<{ top: string; dotGit: string } | undefined> {
  for (let d = dir; ; d = path.dirname(d)) {
    const dotGit = path.join(d, '.git');
    try {
      await fsp.lstat(dotGit);
      return { top: d, dotGit };
    } catch {
      // not here
    }
    if (path.dirname(d) === d) return undefined;
  }
}

/** The repository's own config file (`.git/config`, or in the folder a `.git` file names). */
async function ownConfigFile(repo: { top: string; dotGit: string }): Promise<string | undefined> {
  try {
    const st = await fsp.stat(repo.dotGit);
    if (st.isDirectory()) return path.join(repo.dotGit, 'config');
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(await fsp.readFile(repo.dotGit, 'utf8'));
    return m?.[1] ? path.join(path.resolve(repo.top, m[1]), 'config') : undefined;
  } catch {
    return undefined;
  }
}

/** Variables that would point git at another repository than the one asked about (`-C top` names it). */
const REPO_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_NAMESPACE',
];

/**
 * Every `core.hooksPath` value git itself reads for the repository at `top`, in git's order — from every place
 * it can be set: the system config (or `GIT_CONFIG_SYSTEM`), the global ones (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`, or `GIT_CONFIG_GLOBAL`), the repository's config and its worktree config,
 * `[include]` and `[includeIf "gitdir:…" / "onbranch:…" / "hasconfig:…"]` files (the environment's settings are
 * `envHooksPaths`') — by asking git (`git config --get-all`, which only reads: no hook, pager or alias runs
 * for it, stdout is a pipe), with the scrubbed environment (proc/child-env.ts) that still carries HOME,
 * XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL / _SYSTEM / _NOSYSTEM. Undefined when git cannot answer (not installed, a repository git refuses to
 * read, a timeout): then the caller reads the files itself.
 */
function gitHooksPaths(top: string): Promise<string[] | undefined> {
  const env = childEnv({ GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' });
  for (const name of REPO_VARIABLES) delete env[name];
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', top, 'config', '--get-all', '--path', 'core.hooksPath'],
      { env, timeout: 10_000, maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        // Exit 1: the key is set nowhere. Anything else (ENOENT, 128, a signal): git did not answer.
        if (error && (error as { code?: unknown }).code !== 1) return resolve(undefined);
        resolve(error ? [] : stdout.split('\n').filter((v) => v !== ''));
      },
    );
  });
}

/**
 * The `core.hooksPath` values of a git config text (git's INI format: `[core]` section, key case-insensitive,
 * value optionally double-quoted, `#`/`;` comments). Every value found counts (the last one is git's, but an earlier
 * one may come back when a line is removed). Includes are not followed (filesHooksPaths says when this is used).
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
 * When git cannot answer: the values in the files git would read first-hand — the repository's own config, the
 * global ones and the system one (at their usual places or where GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM point) —
 * without following includes (without git no hook runs anyway; this only keeps the guard when git refuses to
 * answer for a repository it may run hooks in later).
 */
async function filesHooksPaths(repo: { top: string; dotGit: string }): Promise<string[]> {
  const home = process.env['HOME'] ?? os.homedir();
  const xdg = process.env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const files = [
    process.env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig',
    ...(process.env['GIT_CONFIG_GLOBAL']
      ? [process.env['GIT_CONFIG_GLOBAL']]
      : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]),
    await ownConfigFile(repo),
  ];
  const out: string[] = [];
  for (const file of files) {
    if (!file) continue;
    try {
      out.push(...hooksPathsOf(await fsp.readFile(file, 'utf8')));
    } catch {
      // not there
    }
  }
  return out.map((v) => v.replace(/^~(?=\/|$)/, home));
}

/**
 * The `core.hooksPath` values set through the environment of the user's own git (`GIT_CONFIG_COUNT` with
 * `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>`, and `GIT_CONFIG_PARAMETERS` as `-c` writes it: `'key'='value'`),
 * read here rather than handed to git: the scrubbed environment drops them (a `*_KEY_*` name, values that may hold
 * credentials such as `http.extraHeader`), and only this one key matters.
 */
export function envHooksPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  for (const m of (env['GIT_CONFIG_PARAMETERS'] ?? '').matchAll(/'([^']*)'='((?:[^']|'\\'')*)'/g))
    if ((m[1] ?? '').toLowerCase() === 'core.hookspath') out.push((m[2] ?? '').replaceAll("'\\''", "'"));
  const count = Number(env['GIT_CONFIG_COUNT'] ?? 0);
  for (let i = 0; Number.isInteger(count) && i < count && i < 1000; i++)
    if ((env[`GIT_CONFIG_KEY_${i}`] ?? '').toLowerCase() === 'core.hookspath') {
      const value = env[`GIT_CONFIG_VALUE_${i}`];
      if (value) out.push(value);
    }
  return out;
}

/**
 * The folders (relative to `root`, `/`-separated, no trailing `/`) that `core.hooksPath` names for the repository
 * holding folder `dir` (default: the project root itself), as far as they lie inside `root` (absolute, real) — a
 * relative value is taken from the repository's top folder, where git runs hooks. [] when there is no repository
 * or no such setting. Values are read as git reads them (gitHooksPaths), else from the files (filesHooksPaths),
 * plus those the environment sets (envHooksPaths) and those of the repository's own config file, read directly.
 */
export async function hooksFolders(root: string, dir: string = root): Promise<string[]> {
  const repo = await repositoryOf(dir);
  if (!repo) return [];
  // The repository's own file counts even when git does not read it (a `.git` folder git does not take for a
  // repository yet — one more file written there and git would).
  const own = await ownConfigFile(repo);
  const ownValues = own ? hooksPathsOf(await fsp.readFile(own, 'utf8').catch(() => '')) : [];
  const values = [
    ...((await gitHooksPaths(repo.top)) ?? (await filesHooksPaths(repo))),
    ...ownValues,
    ...envHooksPaths(),
  ];
  const out: string[] = [];
  for (const value of values) {
    const abs = path.resolve(repo.top, value);
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue; // outside the project: not writable
    if (!out.includes(rel)) out.push(rel);
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
 * `.git` segment, or it lies in the folder `core.hooksPath` names for the repository that holds it — the
 * project's, or a nested repository's (module docstring).
 */
export async function gitControlled(root: string, rel: string): Promise<boolean> {
  if (inGitDir(rel)) return true;
  const folder = path.dirname(path.resolve(root, rel));
  const within = path.relative(root, folder);
  const from = within.startsWith('..') || path.isAbsolute(within) ? root : folder;
  return inFolders(rel, await hooksFolders(root, await nearestExisting(from)));
}

/** `dir` or its nearest existing ancestor (a file may be written into folders that do not exist yet). */
async function nearestExisting(dir: string): Promise<string> {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await fsp.stat(d);
      return d;
    } catch {
      if (path.dirname(d) === d) return d;
    }
  }
}
