/**
 * A repository's own git folder: any path with a `.git` segment — the project's `.git/`, a nested repository's
 * `sub/.git/`, a submodule's `.git` file, `.git/modules/…`. Landfall's snapshots never hold these files (the
 * shadow store skips `.git`), so undo cannot restore them, and `.git/config` or `.git/hooks/*` run code on the
 * user's next git command: every write there is asked as `git_dir` (agent/permission/rules.ts), whatever the rules.
 *
 * Hooks can also live OUTSIDE `.git`: the folder `core.hooksPath` names (husky's `.husky`, relative to the work
 * tree) runs on the next `git commit` just like `.git/hooks`, and every file git's configuration chain reads (a
 * work-tree `.gitconfig` that `.git/config` includes) can set `core.fsmonitor`, which runs on the next
 * `git status`: a write to any of them is a `git_dir` write too (`gitControlled`). The setting and the chain are
 * read from every place git reads them (the repository's config and worktree config, the global and system ones,
 * every include and conditional include whatever its condition, the environment: `guardedPlaces`), and every
 * place counts in its literal and its real form, so no symlink (`.husky -> tools/hooks`, `.git/hooks ->
 * ../scripts/hooks`, a `.git` file's `gitdir:` inside the work tree) leads around the question.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { physicalPath, realOf } from '../fs/workspace';
import { askGitConfig } from './git-config-ask';
import { configChain, expandHome, isIncludeKey, joinRaw, parseGitConfig, readSmall } from './git-config-chain';

/** True when root-relative `rel` (separators `/` or `\`) has a `.git` segment (case-insensitive, as on macOS). */
export function inGitDir(rel: string): boolean {
  return rel.split(/[\\/]+/).some((s) => s.toLowerCase() === '.git');
}

/** The question a write into a git folder asks; `what` names the tool's action ("write .git/config"). */
export function gitDirTitle(what: string): string {
  return `${what} — this is the repository's own git folder (.git) or its hooks folder: it can run code on your next git command, and Landfall's undo cannot restore it`;
}

/** A repository as git finds it: its top folder (the work tree) and its `.git` (a folder, or a file naming one). */
interface Repository {
  top: string;
  dotGit: string;
}

/**
 * The repository that holds folder `dir` (absolute): the nearest folder at or above it with a `.git` folder or
 * file, as git finds it — also above the project root, when the project is a folder of a larger repository.
 */
async function repositoryOf(dir: string): Promise<Repository | undefined> {
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

/**
 * The repository's git folder (`.git`, or the folder a `.git` file's `gitdir:` line names, relative to the top
 * folder) and its common folder (where a linked worktree's `commondir` file points, relative to the git folder;
 * else the git folder itself): absolute, `..` taken physically as git opens them (physicalPath), symlinks kept. Undefined when `.git` names no folder.
 */
async function gitFoldersOf(repo: Repository): Promise<{ gitDir: string; commonDir: string } | undefined> {
  let gitDir = repo.dotGit;
  try {
    if (!(await fsp.stat(repo.dotGit)).isDirectory()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(await readSmall(repo.dotGit));
      if (!m?.[1]) return undefined;
      gitDir = await physicalPath(joinRaw(repo.top, m[1]));
    }
  } catch {
    return undefined;
  }
  const common = (await readSmall(path.join(gitDir, 'commondir'))).trim();
  return { gitDir, commonDir: common === '' ? gitDir : await physicalPath(joinRaw(gitDir, common)) };
}

/**
 * The `core.hooksPath` values of a git config text (git's INI format, git-config-chain.ts `parseGitConfig`:
 * `[core]` section, key case-insensitive, value optionally double-quoted, `#`/`;` comments). Every value found
 * counts (the last one is git's, but an earlier one may come back when a line is removed). Includes are not
 * followed (configChain follows them).
 */
export function hooksPathsOf(configText: string): string[] {
  return parseGitConfig(configText)
    .filter((e) => e.key === 'core.hookspath' && e.value)
    .map((e) => e.value as string);
}

/**
 * The settings the environment of the user's own git carries (`GIT_CONFIG_COUNT` with `GIT_CONFIG_KEY_<n>` /
 * `GIT_CONFIG_VALUE_<n>`, and `GIT_CONFIG_PARAMETERS` as `-c` writes it: `'key'='value'`), keys lower-cased: read
 * here rather than handed to git (SKIPPED_VARIABLES).
 */
function envConfig(env: NodeJS.ProcessEnv): [string, string][] {
  const out: [string, string][] = [];
  for (const m of (env['GIT_CONFIG_PARAMETERS'] ?? '').matchAll(/'([^']*)'='((?:[^']|'\\'')*)'/g))
    out.push([(m[1] ?? '').toLowerCase(), (m[2] ?? '').replaceAll("'\\''", "'")]);
  const count = Number(env['GIT_CONFIG_COUNT'] ?? 0);
  for (let i = 0; Number.isInteger(count) && i < count && i < 1000; i++) {
    const value = env[`GIT_CONFIG_VALUE_${i}`];
    if (value) out.push([(env[`GIT_CONFIG_KEY_${i}`] ?? '').toLowerCase(), value]);
  }
  return out;
}

/**
 * The `core.hooksPath` values set through the environment of the user's own git (envConfig): only this key
 * matters for hooks; the scrubbed environment of the git Landfall asks drops them.
 */
export function envHooksPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  return envConfig(env)
    .filter(([k, v]) => k === 'core.hookspath' && v !== '')
    .map(([, v]) => v);
}

/** Where a write is a `git_dir` write (guardedPlaces): a folder (`rel` '' is the whole project) or one file. */
export interface GuardedPlace {
  /** Relative to the project root, `/`-separated, no trailing `/`; a literal or a real form (both are listed). */
  rel: string;
  folder: boolean;
  /** `git`: a git folder; `hooks`: the default hooks folder; `hooksPath`: one core.hooksPath names; `config`: a
   * file of git's configuration chain; `link`: what a symlink in the git folder or a hooks folder leads to. */
  kind: 'git' | 'hooks' | 'hooksPath' | 'config' | 'link';
  /** Why, for a question's reasons ("the repository's hooks folder (core.hooksPath)"). */
  why: string;
}

/** How many folders' entries are listed for symlinks, and how many entries of each (one level, no recursion). */
const MAX_LISTED_FOLDERS = 32;
const MAX_LISTED_ENTRIES = 1000;

/**
 * Every place inside the project `root` (absolute, real) where a write is a `git_dir` write, for the repository
 * that holds folder `dir` (default: the root) and, when that is another one, for the root's repository too:
 * - the repository's git folder and common folder (a `.git` file's `gitdir: gitdata` inside the work tree);
 * - its hooks folder (`<common folder>/hooks`) and every folder `core.hooksPath` names: the values git reads now
 *   (git-config-ask.ts), those of EVERY file of the config chain whatever its `[includeIf]` condition (one branch
 *   switch makes an `onbranch:` include count), and the environment's (envHooksPaths); a relative value from
 *   the repository's top folder, where git runs hooks;
 * - every file of git's configuration chain (configChain from the system, global, repository and worktree
 *   configs, and the files git reports): `core.fsmonitor`, `core.pager`, `alias.*` in any of them run code;
 * - what a symlink among the entries of the git folders and hooks folders leads to (`.git/config -> ../cfg`,
 *   `.git/hooks -> ../scripts/hooks`, `.git/hooks/pre-commit -> ../../scripts/pc.sh`), one level deep.
 * Each place is listed in its literal form, as git opens it (fs/workspace.ts `physicalPath`: `..` after a symlink
 * taken physically) and in its real form (`realOf`: symlinks followed, also dangling ones and through missing
 * tails), so `.husky -> tools/hooks` guards both names. A folder that holds the
 * whole project is listed as '' (everything). Places outside the project are left out. Never throws.
 */
export async function guardedPlaces(root: string, dir: string = root): Promise<GuardedPlace[]> {
  const here = await repositoryOf(dir);
  const places = await placesOf(root, here);
  if (dir !== root) {
    const top = await repositoryOf(root);
    if (top && top.top !== here?.top) for (const p of await placesOf(root, top)) addPlace(places, p);
  }
  return places;
}

function addPlace(places: GuardedPlace[], p: GuardedPlace): void {
  if (!places.some((q) => q.rel === p.rel && q.folder === p.folder)) places.push(p);
}

/** One place git takes code from, absolute, before it is put in the project's terms (GuardedPlace). */
export interface GitSource {
  abs: string;
  folder: boolean;
  kind: GuardedPlace['kind'];
  why: string;
}

/** guardedPlaces for one repository (or none: then the global and system configuration only). */
async function placesOf(root: string, repo: Repository | undefined): Promise<GuardedPlace[]> {
  const places: GuardedPlace[] = [];
  for (const source of await sourcesOf(root, repo))
    for (const form of await formsOf(source.abs)) {
      const rel = insideRel(root, form, source.folder);
      if (rel !== undefined) addPlace(places, { rel, folder: source.folder, kind: source.kind, why: source.why });
    }
  return places;
}

/**
 * Every place git takes code from for the repository that holds folder `root` (absolute), wherever it is — inside
 * the project or not (guardedPlaces lists the same places, kept to the project): the git folders, the hooks
 * folder, every core.hooksPath folder, every file of the configuration chain (global and system ones included)
 * and what symlinks in those folders lead to. What the sweep around a bash command watches (git-sweep.ts).
 * Never throws.
 */
export async function gitSources(root: string): Promise<GitSource[]> {
  return sourcesOf(root, await repositoryOf(root));
}

async function sourcesOf(root: string, repo: Repository | undefined): Promise<GitSource[]> {
  const home = process.env['HOME'] ?? os.homedir();
  const xdg = process.env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const git = repo ? await gitFoldersOf(repo) : undefined;
  const env = envConfig(process.env);
  const global = process.env['GIT_CONFIG_GLOBAL'];
  const starts = [
    process.env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig',
    ...(global ? [path.resolve(root, global)] : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]),
    ...(git
      ? [
          path.join(git.commonDir, 'config'),
          path.join(git.gitDir, 'config'),
          path.join(git.commonDir, 'config.worktree'),
          path.join(git.gitDir, 'config.worktree'),
          ...(await linkedWorktreeConfigs(git.commonDir)),
        ]
      : []),
    ...env
      .filter(([k, v]) => isIncludeKey(k) && path.isAbsolute(expandHome(v, home)))
      .map(([, v]) => expandHome(v, home)),
  ];
  const seen = new Set<string>();
  const known = await configChain(starts, home, seen);
  // git is not asked when it would block on a FIFO of the chain (it opens every include it can read)
  const asked = known.blocking ? undefined : await askGitConfig(repo?.top ?? root, home, known.files);
  const more = await configChain(asked?.files ?? [], home, seen);
  const chain = { files: [...known.files, ...more.files], hooksPaths: [...known.hooksPaths, ...more.hooksPaths] };

  const sources: GitSource[] = [];
  const add = (abs: string, folder: boolean, kind: GuardedPlace['kind'], why: string): void => {
    if (!sources.some((q) => q.abs === abs && q.folder === folder)) sources.push({ abs, folder, kind, why });
  };
  const listed: { dir: string; where: string }[] = [];
  if (git) {
    for (const d of new Set([git.gitDir, git.commonDir])) {
      add(d, true, 'git', "the repository's git folder");
      listed.push({ dir: d, where: 'the git folder' });
    }
    add(path.join(git.commonDir, 'hooks'), true, 'hooks', "the repository's hooks folder");
    listed.push({ dir: path.join(git.commonDir, 'hooks'), where: 'the hooks folder' });
  }
  for (const file of chain.files) add(file, false, 'config', 'a file git reads its configuration from');
  const values = [
    ...(asked?.hooksPaths ?? []),
    ...chain.hooksPaths,
    ...envHooksPaths().map((v) => expandHome(v, home)),
  ];
  for (const value of new Set(values)) {
    // a relative value only means something in a repository; an absolute one is every repository's
    if (!repo && !path.isAbsolute(value)) continue;
    const abs = joinRaw(repo?.top ?? root, value);
    add(abs, true, 'hooksPath', "the repository's hooks folder (core.hooksPath)");
    listed.push({ dir: abs, where: 'a hooks folder' });
  }
  for (const { dir, where } of listed.slice(0, MAX_LISTED_FOLDERS))
    for (const link of await symlinksIn(dir)) {
      // the link text is relative to the link's real folder: formsOf's physicalPath takes a `..` from there
      const target = joinRaw(dir, link.target);
      const isDir = await fsp.stat(target).then(
        (st) => st.isDirectory(),
        () => false,
      );
      add(target, isDir, 'link', `what ${link.name}, a symlink in ${where}, leads to`);
    }
  return sources;
}

/**
 * The `config.worktree` of every linked worktree of the repository whose common folder is `commonDir`
 * (`worktrees/<name>/config.worktree`, up to MAX_LISTED_ENTRIES of them): with `extensions.worktreeConfig` git
 * reads it when run in that worktree, so `core.fsmonitor` there runs code like the repository's own config.
 */
async function linkedWorktreeConfigs(commonDir: string): Promise<string[]> {
  const names = await fsp.readdir(path.join(commonDir, 'worktrees')).catch(() => [] as string[]);
  return names.slice(0, MAX_LISTED_ENTRIES).map((n) => path.join(commonDir, 'worktrees', n, 'config.worktree'));
}

/** The symlinks among the first MAX_LISTED_ENTRIES entries of folder `dir` (name and link text); [] if unlistable. */
async function symlinksIn(dir: string): Promise<{ name: string; target: string }[]> {
  const out: { name: string; target: string }[] = [];
  try {
    const d = await fsp.opendir(dir);
    let n = 0;
    for await (const e of d) {
      if (++n > MAX_LISTED_ENTRIES) break;
      if (!e.isSymbolicLink()) continue;
      const target = await fsp.readlink(joinRaw(dir, e.name)).catch(() => undefined);
      if (target !== undefined) out.push({ name: e.name, target });
    }
  } catch {
    // not a folder, or not readable
  }
  return out;
}

/**
 * The forms of absolute path `abs` (joinRaw's, not normalised): as written (`path.resolve`), as opened
 * (physicalPath: `..` after a symlink taken physically) and real (realOf, also through dangling links); the real
 * one is left out when it cannot be resolved (a loop).
 */
async function formsOf(abs: string): Promise<string[]> {
  const opened = await physicalPath(abs);
  const forms = new Set([path.resolve(abs), opened]);
  try {
    forms.add((await realOf(opened)).real);
  } catch {
    // a symlink loop: git cannot open it either
  }
  return [...forms];
}

/**
 * `abs` relative to `root` (`/`-separated), or undefined when it lies outside; a folder at or above the root is ''
 * (the whole project is in it), a file at the root itself is undefined.
 */
function insideRel(root: string, abs: string, folder: boolean): string | undefined {
  const up = path.relative(abs, root);
  if (folder && (up === '' || (!up.startsWith('..') && !path.isAbsolute(up)))) return '';
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/**
 * The folders (relative to `root`, `/`-separated, no trailing `/`) that `core.hooksPath` names for the repository
 * holding folder `dir` (default: the project root itself), as far as they lie inside `root` (absolute, real), in
 * literal and real form — every value from every place git reads it (guardedPlaces, kind `hooksPath`). [] when
 * there is no repository or no such setting.
 */
export async function hooksFolders(root: string, dir: string = root): Promise<string[]> {
  return (await guardedPlaces(root, dir)).filter((p) => p.kind === 'hooksPath').map((p) => p.rel);
}

/** True when root-relative `rel` is one of `folders` or lies below one (case-insensitive, as on macOS); '' is all. */
export function inFolders(rel: string, folders: string[]): boolean {
  const r = normalRel(rel);
  return folders.some((f) => {
    const low = f.toLowerCase();
    return low === '' || r === low || r.startsWith(`${low}/`);
  });
}

function normalRel(rel: string): string {
  return rel
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.')
    .join('/')
    .toLowerCase();
}

/** The first of `places` that root-relative `rel` is in (a folder's) or is (a file's), case-insensitively. */
export function guardedPlaceOf(rel: string, places: GuardedPlace[]): GuardedPlace | undefined {
  return places.find((p) => (p.folder ? inFolders(rel, [p.rel]) : normalRel(rel) === p.rel.toLowerCase()));
}

/**
 * True when a write to root-relative `rel` (its real path, as fs/workspace.ts `resolveInRoot` gives it) of the
 * project `root` (absolute, real) is a `git_dir` write: it has a `.git` segment, or it is in one of the
 * guardedPlaces of the repository that holds it and of the project's repository (module docstring).
 */
export async function gitControlled(root: string, rel: string): Promise<boolean> {
  if (inGitDir(rel)) return true;
  const folder = path.dirname(path.resolve(root, rel));
  const within = path.relative(root, folder);
  const from = within.startsWith('..') || path.isAbsolute(within) ? root : folder;
  return guardedPlaceOf(rel, await guardedPlaces(root, await nearestExisting(from))) !== undefined;
}

/**
 * The guarded places (guardedPlaces) of the NESTED repository that holds root-relative `rel` (a repository inside
 * the project other than the one holding `root`: a vendored checkout with its own `core.hooksPath`), or [] when
 * `rel` lies in the root's own repository or in none. `cache` (per bash line) keeps one answer per repository top
 * folder, so a line naming many files in it asks git once. For bash lines (agent/permission/bash-facts.ts); the
 * edit tools get the same through gitControlled.
 */
export async function nestedPlaces(
  root: string,
  rel: string,
  cache: Map<string, GuardedPlace[]>,
): Promise<GuardedPlace[]> {
  const folder = path.dirname(path.resolve(root, rel));
  const within = path.relative(root, folder);
  if (within.startsWith('..') || path.isAbsolute(within)) return [];
  const dir = await nearestExisting(folder);
  const [here, top] = [await repositoryOf(dir), await repositoryOf(root)];
  if (!here || here.top === top?.top) return [];
  const known = cache.get(here.top);
  if (known) return known;
  const places = await guardedPlaces(root, dir);
  cache.set(here.top, places);
  return places;
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
