/**
 * Which bash commands an "always" answer may never widen into a pattern, and which ones reach into a
 * repository's own `.git` folder. Both work on a command's literal words (bash-command.ts).
 *
 * Never widened (the grant is the exact command only; a pattern the user edits is refused):
 * - interpreters, whatever their arguments, since a pattern over them covers any program text (`python3 -c …`,
 *   `node -e …`, `bash -c …`, `perl -e …`, `ruby -e …`, `deno eval …`, `php -r …`, `osascript -e …` …);
 * - commands that run other commands (`env`, `sudo`, `xargs`, `nohup`, `timeout`, `npx`, `find … -exec` …);
 * - destructive commands: `rm`, `rmdir`, `unlink`, `shred`, `dd`, `mkfs*`, `truncate`, `mv`, `cp`, `ln`,
 *   `chmod`/`chown`/`chgrp`, `kill`/`pkill`/`killall`, `sed -i`/`perl -i`, `find -delete`, and the git verbs that
 *   throw work away (`push --force`/`-f`/`+ref`, `reset --hard`, `clean`, `checkout --`/`.`, `restore`,
 *   `branch -D`, `stash drop|clear`, `reflog expire`, `gc --prune`, `update-ref -d`, `filter-branch`,
 *   `rebase`).
 *
 * Reaching into `.git` (asked as `git_dir`, which no rule or grant covers): a redirection writing to a path with
 * a `.git` segment; an argument naming such a path (`.git/hooks/pre-commit`, `vendor/lib/.git`,
 * `--git-dir=.git`) of any command but the read-only ones that often name `.git` to skip it (`ls`, `cat`, `head`,
 * `tail`, `wc`, `grep`, `rg`, `ag`, `tree`, `du`, `stat`, `file`, `diff`, `find` without `-exec`/`-delete`/
 * `-fprint`, and `git` itself); git lines that make git run other programs (`-c`, `--config-env`, `--exec-path`
 * before the subcommand; also never widened) and git subcommands that write configuration or hooks
 * (bash-git.ts `gitConfigReason`: `config` in any scope, `remote add`, `submodule`, `branch --set-upstream-to`, `init`,
 * `worktree add` …).
 */

import { base, gitArgs, gitRunsProgramsReason, isGit } from './bash-git';

const INTERPRETERS = new Set([
  'bash',
  'sh',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'perl',
  'ruby',
  'irb',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'R',
  'julia',
  'osascript',
  'pwsh',
  'powershell',
  'tclsh',
  'awk',
  'gawk',
  'mawk',
  'jshell',
  'groovy',
  'scala',
]);

const RUNS_OTHERS = new Set([
  'env',
  'sudo',
  'doas',
  'su',
  'xargs',
  'nohup',
  'nice',
  'ionice',
  'timeout',
  'time',
  'watch',
  'stdbuf',
  'setsid',
  'command',
  'builtin',
  'exec',
  'eval',
  'source',
  '.',
  'npx',
  'pnpx',
  'bunx',
  'uvx',
  'pipx',
  'parallel',
  'ssh',
  'script',
  'chroot',
  'flock',
  'strace',
  'ltrace',
  'gdb',
]);

const DESTRUCTIVE = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'dd',
  'truncate',
  'mv',
  'cp',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'kill',
  'pkill',
  'killall',
  'mkfs',
  'wipefs',
  'fdisk',
  'parted',
  'shutdown',
  'reboot',
]);

const GIT_DISCARDING: Array<(args: string[]) => boolean> = [
  (a) => a[0] === 'push' && a.some((w) => w === '-f' || w.startsWith('--force') || w.startsWith('+')),
  (a) => a[0] === 'reset' && a.includes('--hard'),
  (a) => a[0] === 'clean',
  (a) => a[0] === 'checkout' && (a.includes('--') || a.includes('.') || a.includes('-f') || a.includes('--force')),
  (a) => a[0] === 'restore',
  (a) => a[0] === 'branch' && a.some((w) => w === '-D' || w === '--delete' || w === '-d' || w === '-f'),
  (a) => a[0] === 'stash' && (a[1] === 'drop' || a[1] === 'clear'),
  (a) => a[0] === 'reflog' && a[1] === 'expire',
  (a) => a[0] === 'gc' && a.some((w) => w.startsWith('--prune')),
  (a) => a[0] === 'update-ref' && a.includes('-d'),
  (a) => a[0] === 'filter-branch' || a[0] === 'filter-repo' || a[0] === 'rebase',
];

/**
 * Why an "always" answer for this command must be the exact command only, or undefined when a pattern may be
 * saved. `words` are the command's literal words (a command without literal words is never widened either).
 */
export function neverWidenReason(words: string[] | undefined): string | undefined {
  if (!words || words.length === 0) return 'its words are not all known before it runs';
  const name = base(words[0]);
  if (INTERPRETERS.has(name) || /^python\d/.test(name) || /^(node|ruby|perl|php|lua)\d/.test(name))
    return `${name} runs program text, so a pattern would allow any program`;
  if (RUNS_OTHERS.has(name)) return `${name} runs other commands`;
  if (name === 'find' && words.some((w) => w === '-exec' || w === '-execdir' || w === '-ok' || w === '-delete'))
    return 'find with -exec or -delete runs commands or deletes files';
  if (DESTRUCTIVE.has(name) || name.startsWith('mkfs')) return `${name} destroys or overwrites data`;
  if ((name === 'sed' || name === 'perl') && words.some((w) => /^-[a-zA-Z]*i/.test(w) || w.startsWith('--in-place')))
    return `${name} -i rewrites files in place`;
  if (isGit(words)) {
    const runs = gitRunsProgramsReason(words);
    if (runs) return runs;
    const args = gitArgs(words);
    if (GIT_DISCARDING.some((f) => f(args))) return `git ${args[0]} can throw work away`;
  }
  if ((name === 'npm' || name === 'pnpm' || name === 'yarn') && (words[1] === 'exec' || words[1] === 'dlx'))
    return `${name} ${words[1]} runs any package`;
  return undefined;
}

const READS_ONLY = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'tree',
  'du',
  'stat',
  'file',
  'diff',
  'git',
]);

/** True for a command that only reads whatever paths it names (bash-risk docstring), so a `.git` argument is harmless. */
export function readsOnly(words: string[] | undefined): boolean {
  if (!words || words.length === 0) return false;
  const name = base(words[0]);
  if (name === 'find')
    return !words.some(
      (w) => ['-exec', '-execdir', '-ok', '-okdir', '-delete'].includes(w) || w.startsWith('-fprint') || w === '-fls',
    );
  return READS_ONLY.has(name);
}

/** True when a word names a path with a `.git` segment (also after `--opt=` and in `a:b` lists). */
export function namesGitDir(word: string): boolean {
  return word.split(/[=:]/).some((part) =>
    part
      .split(/[\\/]+/)
      .filter((s) => s !== '')
      .some((s) => s.toLowerCase() === '.git'),
  );
}
