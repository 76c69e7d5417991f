/**
 * A repository's own git folder: any path with a `.git` segment — the project's `.git/`, a nested repository's
 * `sub/.git/`, a submodule's `.git` file, `.git/modules/…`. Landfall's snapshots never hold these files (the
 * shadow store skips `.git`), so undo cannot restore them, and `.git/config` or `.git/hooks/*` run code on the
 * user's next git command: every write there is asked as `git_dir` (agent/permission/rules.ts), whatever the rules.
 */

/** True when root-relative `rel` (separators `/` or `\`) has a `.git` segment (case-insensitive, as on macOS). */
export function inGitDir(rel: string): boolean {
  return rel.split(/[\\/]+/).some((s) => s.toLowerCase() === '.git');
}

/** The question a write into a git folder asks; `what` names the tool's action ("write .git/config"). */
export function gitDirTitle(what: string): string {
  return `${what} — this is the repository's own git folder (.git): it can run code on your next git command, and Landfall's undo cannot restore it`;
}
