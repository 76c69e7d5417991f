/**
 * git lines the gate asks as `git_dir` whatever the rules (README "A repository's own .git"): lines that make git
 * run other programs (`gitRunsProgramsReason`: `-c`, `--config-env`, `--exec-path` before the subcommand; never
 * widened either, bash-risk.ts) and subcommands that write git configuration or hooks (`gitConfigReason`). They
 * work on a command's literal words (bash-command.ts); `-C dir` (another repository) is not a reason.
 */

/** The command name without its folder (`/usr/bin/git` → `git`). */
export function base(word: string | undefined): string {
  return (word ?? '').split('/').pop() ?? '';
}

/** git's subcommand words, after global options (`-C dir`, `-c k=v`, `--git-dir=…` …). */
export function gitArgs(words: string[]): string[] {
  let i = 1;
  while (i < words.length && (words[i] as string).startsWith('-')) {
    const w = words[i] as string;
    const takesValue = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'].includes(w);
    i += takesValue ? 2 : 1;
  }
  return words.slice(i);
}

/** True for a git command line (`words[0]` is git). */
export function isGit(words: string[]): boolean {
  return base(words[0]) === 'git';
}

/** True for a git global option that makes git run a program it names: `-c k=v`, `--config-env`, `--exec-path`. */
function runsProgramsOption(w: string): boolean {
  return w.startsWith('-c') || w.startsWith('--config-env') || w.startsWith('--exec-path');
}

/**
 * Why a git command line may make git run another program: a global option before the subcommand that sets
 * configuration for this run (`-c alias.st=!cmd`, `-c core.pager=…`, `-c core.fsmonitor=…`, `-c core.sshCommand=…`,
 * `--config-env=…`) or picks where git's own programs are found (`--exec-path=…`). Undefined for other lines.
 * `-C dir` (another repository's folder) is not such an option.
 */
export function gitRunsProgramsReason(words: string[] | undefined): string | undefined {
  if (!words || !isGit(words)) return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (!w.startsWith('-')) return undefined; // the subcommand: its own options are its business
    if (runsProgramsOption(w))
      return `${w.split('=')[0]} sets git configuration for this command, which can make git run any program (an alias, core.pager, core.fsmonitor, core.sshCommand)`;
    if (w === '-C' || w === '--git-dir' || w === '--work-tree' || w === '--namespace') i++;
  }
  return undefined;
}

const CONFIG_READS = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', 'get', 'list'];

/** True when `git config <rest>` sets, adds, unsets, renames or edits a value, in any scope. */
function configWrites(rest: string[]): boolean {
  if (rest.some((w) => CONFIG_READS.includes(w))) return false;
  return (
    rest.filter((w) => !w.startsWith('-')).length >= 2 ||
    rest.some((w) =>
      /^--(unset|add|replace|rename|remove|edit)|^-e$|^(set|unset|rename-section|remove-section|edit)$/.test(w),
    )
  );
}

const has = (args: string[], ...flags: string[]): boolean =>
  args.some((w) => flags.some((f) => w === f || (f.startsWith('--') && w.startsWith(`${f}=`))));

/** The subcommands that write git configuration or hooks, each with what it writes (`gitConfigReason`). */
const CONFIG_WRITERS: Array<(a: string[]) => string | undefined> = [
  (a) => (a[0] === 'config' && configWrites(a.slice(1)) ? 'it writes git configuration' : undefined),
  (a) =>
    a[0] === 'remote' && ['add', 'set-url', 'rename', 'remove', 'rm', 'set-head', 'set-branches'].includes(a[1] ?? '')
      ? `git remote ${a[1]} writes .git/config`
      : undefined,
  (a) =>
    a[0] === 'submodule' && !['status', 'summary', undefined].includes(a[1])
      ? `git submodule ${a[1]} writes .git/config and the submodules' git folders`
      : undefined,
  (a) =>
    a[0] === 'branch' &&
    (has(a, '-u', '--set-upstream-to', '--unset-upstream', '-t', '--track', '--edit-description') ||
      has(a, '-m', '-M', '--move', '-c', '-C', '--copy'))
      ? 'git branch with this option writes .git/config'
      : undefined,
  (a) => (a[0] === 'push' && has(a, '-u', '--set-upstream') ? 'git push -u writes .git/config' : undefined),
  (a) =>
    (a[0] === 'checkout' || a[0] === 'switch') && has(a, '-t', '--track')
      ? `git ${a[0]} --track writes .git/config`
      : undefined,
  (a) => (a[0] === 'init' ? 'git init writes a git folder with its config and hooks' : undefined),
  (a) =>
    a[0] === 'clone' && has(a, '-c', '--config', '--template', '-u', '--upload-pack', '--separate-git-dir')
      ? 'git clone with this option sets configuration or hooks that run programs'
      : undefined,
  (a) => (a[0] === 'worktree' && a[1] !== 'list' ? `git worktree ${a[1] ?? ''} writes .git/worktrees` : undefined),
  (a) =>
    a[0] === 'lfs' && ['install', 'uninstall', 'update'].includes(a[1] ?? '')
      ? `git lfs ${a[1]} writes git configuration and hooks`
      : undefined,
  (a) =>
    a[0] === 'maintenance' && ['register', 'unregister', 'start', 'stop'].includes(a[1] ?? '')
      ? `git maintenance ${a[1]} writes git configuration`
      : undefined,
];

/**
 * Why a git command line is a `git_dir` question whatever the rules (README: setting git config is asked as
 * git_dir): it makes git run other programs (`gitRunsProgramsReason`), or its subcommand writes configuration or
 * hooks — `config` setting anything in any scope (`--global` writes ~/.gitconfig), `remote add|set-url|rename|
 * remove|set-head|set-branches`, `submodule` (but `status`/`summary`), `branch -u|--set-upstream-to|--track|-m|-c`,
 * `push -u`, `checkout|switch --track`, `init`, `clone -c|--config|--template|-u`, `worktree` (but `list`),
 * `lfs install|update`, `maintenance register|start`. Undefined for any other line.
 */
export function gitConfigReason(words: string[] | undefined): string | undefined {
  if (!words || !isGit(words)) return undefined;
  const runs = gitRunsProgramsReason(words);
  if (runs) return runs;
  const args = gitArgs(words);
  for (const f of CONFIG_WRITERS) {
    const why = f(args);
    if (why) return why;
  }
  return undefined;
}

/** True when `git …` writes git configuration or hooks, or runs other programs (`gitConfigReason`). */
export function writesGitConfig(words: string[] | undefined): boolean {
  return gitConfigReason(words) !== undefined;
}
