/**
 * Facts about the project folder that a track needs, re-read on every track: whether it is a git project (a
 * `.git` folder, or a `.git` file pointing at the git dir as worktrees and submodules have), the user's
 * `info/exclude` rules and index path list (both only read), and where the store for it lives:
 * `<dataDir>/snapshot/<projectId>/<first 16 hex of sha1(real worktree path)>`.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { compileRules, IgnoreRules } from './ignore-rules';
import { readUserIndex, type TrackedPaths } from './user-index';

/** The store folder for `worktree` (a real path) under `dataDir`. */
export function storeDir(dataDir: string, projectId: string, worktree: string): string {
  const key = createHash('sha1').update(worktree).digest('hex').slice(0, 16);
  return join(resolve(dataDir), 'snapshot', projectId, key);
}

/** The user's git dir for `worktree`, or undefined for a plain folder. Never creates or writes anything. */
export function userGitDir(worktree: string): string | undefined {
  const dotgit = join(worktree, '.git');
  let st;
  try {
    st = lstatSync(dotgit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return dotgit;
  if (!st.isFile()) return undefined;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotgit, 'utf8'));
  if (!m?.[1]) return undefined;
  return isAbsolute(m[1]) ? m[1] : resolve(worktree, m[1]);
}

/** Reads the user's index path list, re-parsing only when the index file's size or mtime changed. */
export class UserIndexCache {
  private key = '';
  private value: TrackedPaths | undefined;

  /** Paths tracked by the index in `gitdir` (empty sets when there is none). */
  get(gitdir: string): TrackedPaths {
    const file = join(gitdir, 'index');
    let key = 'none';
    try {
      const st = statSync(file);
      key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      // no index yet: nothing tracked
    }
    if (key !== this.key || !this.value) {
      this.value = key === 'none' ? { files: new Set(), dirs: new Set() } : readUserIndex(file);
      this.key = key;
    }
    return this.value;
  }
}

/** Root-level ignore rules for one track: `info/exclude` for git projects, `defaults` for plain folders. */
export function rootRules(gitdir: string | undefined, defaults: readonly string[]): IgnoreRules {
  if (gitdir) {
    let text = '';
    try {
      text = readFileSync(join(gitdir, 'info', 'exclude'), 'utf8');
    } catch {
      // no exclude file
    }
    return new IgnoreRules(compileRules(text), undefined);
  }
  return new IgnoreRules(undefined, compileRules(defaults));
}
