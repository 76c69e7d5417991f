/**
 * Options that turn an otherwise harmless command into one that runs a program the line names, or writes a file
 * the line names (issue 12: an allow rule for `git grep`, `rg` or `git diff`, and plan mode's list of reading
 * commands, let `git grep -O<program>`, `rg --pre <program>` and `git diff --output=<file>` through). The parser
 * (bash-command.ts) makes a command with such an option unproven — asked whatever the allow rules and grants say,
 * unless the rules allow every command whatsoever — and records the written files as write targets, so the
 * `.git` and read-rule checks (bash-facts.ts) see them and plan mode (modes-bash.ts) refuses them.
 *
 * Runs a program named on the line:
 * - `git grep -O[<program>]` / `--open-files-in-pager[=<program>]` (also bundled into short flags: `-iO`);
 * - `git diff|diff-files|diff-tree|diff-index|log|show|whatchanged|format-patch|range-diff|stash|difftool …
 *   --ext-diff` (diff.external or
 *   GIT_EXTERNAL_DIFF), `git difftool -x|--extcmd`, `git rebase -x|--exec`, `git bisect run`;
 * - `git fetch|pull|push|clone|ls-remote|archive --upload-pack|--receive-pack|--exec` (a local repository runs it);
 * - `git clone|ls-remote -u <program>`; `rg --pre <program>`, `ag --pager <program>`, `sort --compress-program`;
 * - `find -exec|-execdir|-ok|-okdir` (and `-delete` deletes).
 * Writes a file named on the line:
 * - `git diff|log|show|whatchanged|format-patch|range-diff|archive --output[=]<file>`, `git format-patch -o <dir>`
 *   / `--output-directory`, `git archive -o <file>`, `git bundle create <file>`;
 * - `tree -o <file>`, `sort -o <file>` / `--output`, `find -fprint|-fprint0|-fprintf|-fls <file>`.
 * Long options count in any unambiguous prefix git or getopt would take (`--open`, `--outp=`, `--upload=`: isLong).
 * Program options that come from configuration git reads (core.pager, textconv drivers, diff.external) are not
 * line options: those files are guarded as git_dir (tools/git-dir.ts).
 */
import { base, gitArgs, isGit } from './bash-git';

/** What a command's options do beyond reading: programs it runs and files it writes (both as written). */
export interface OptionEffects {
  /** Why the command runs a program the line names (one phrase per option found). */
  runs: string[];
  /** Files or folders the command writes because an option names them. */
  writes: string[];
}

/** git subcommands that print diffs: each takes `--ext-diff` and `--output=<file>`. */
const DIFFS = [
  'diff',
  'log',
  'show',
  'whatchanged',
  'format-patch',
  'range-diff',
  'stash',
  'diff-files',
  'diff-tree',
  'diff-index',
];
const DIFF_FAMILY = new Set([...DIFFS, 'difftool']);
const OUTPUT_FAMILY = new Set([...DIFFS, 'archive']);
const REMOTE_FAMILY = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'archive']);

/**
 * True when word `w` (up to a `=`) spells long option `long` or a prefix of it at least 1 letter long: git's
 * option parser and getopt_long both take an unambiguous prefix (`--open` is `--open-files-in-pager`, `--outp=` is
 * `--output=`), and taking every prefix as the option only asks more, never less.
 */
function isLong(w: string, long: string): boolean {
  const name = w.split('=')[0] as string;
  return name.startsWith('--') && name.length >= 3 && long.startsWith(name);
}

/**
 * The value of option `long` (`--long=v` or `--long v`) or of a short option `short` (`-s v`, `-sv`) at `i`, or
 * undefined when `words[i]` is not that option. `''` when the option is there but its value is missing.
 */
function optionValue(words: string[], i: number, long?: string, short?: string): string | undefined {
  const w = words[i] as string;
  if (long !== undefined && isLong(w, long)) {
    const eq = w.indexOf('=');
    return eq < 0 ? (words[i + 1] ?? '') : w.slice(eq + 1);
  }
  if (short !== undefined) {
    if (w === short) return words[i + 1] ?? '';
    if (w.startsWith(short) && !w.startsWith('--')) return w.slice(short.length);
  }
  return undefined;
}

/**
 * `sort`'s `-o` among bundled short options (`-ro out`, `-no`, `-rout.txt`): the first letter that takes a value
 * (`k t S T o`) ends the bundle, and when it is `o` the rest of the word, or the next word, is the output file.
 */
function sortShortOutput(words: string[], i: number): string | undefined {
  const w = words[i] as string;
  if (!/^-[^-]/.test(w)) return undefined;
  const at = [...w.slice(1)].findIndex((c) => 'ktSTo'.includes(c));
  if (at < 0 || w[at + 1] !== 'o') return undefined;
  const rest = w.slice(at + 2);
  return rest !== '' ? rest : (words[i + 1] ?? '');
}

function gitEffects(words: string[], out: OptionEffects): void {
  const args = gitArgs(words);
  const sub = args[0] ?? '';
  for (let i = 1; i < args.length; i++) {
    const w = args[i] as string;
    if (w === '--') break;
    if (sub === 'grep') {
      if (isLong(w, '--open-files-in-pager')) out.runs.push(`git grep ${w} opens the files in a program it names`);
      else if (/^-[^-]/.test(w) && w.includes('O'))
        out.runs.push(`git grep ${w}: -O opens the files in a program it names`);
    }
    if (DIFF_FAMILY.has(sub) && isLong(w, '--ext-diff'))
      out.runs.push(`git ${sub} --ext-diff runs an external diff program`);
    if (sub === 'difftool') {
      const v = optionValue(args, i, '--extcmd', '-x');
      if (v !== undefined) out.runs.push(`git difftool ${w} runs the program it names`);
    }
    if (sub === 'rebase' && optionValue(args, i, '--exec', '-x') !== undefined)
      out.runs.push(`git rebase ${w} runs the command it names`);
    if (REMOTE_FAMILY.has(sub)) {
      for (const long of ['--upload-pack', '--receive-pack', '--exec'])
        if (optionValue(args, i, long) !== undefined) out.runs.push(`git ${sub} ${long} runs the program it names`);
      if ((sub === 'clone' || sub === 'ls-remote') && optionValue(args, i, undefined, '-u') !== undefined)
        out.runs.push(`git ${sub} -u runs the program it names (--upload-pack)`);
    }
    if (OUTPUT_FAMILY.has(sub)) {
      const v =
        optionValue(args, i, '--output') ?? (sub === 'archive' ? optionValue(args, i, undefined, '-o') : undefined);
      if (v !== undefined) out.writes.push(v);
    }
    if (sub === 'format-patch') {
      const v = optionValue(args, i, '--output-directory', '-o');
      if (v !== undefined) out.writes.push(v);
    }
  }
  if (sub === 'bisect' && args[1] === 'run') out.runs.push('git bisect run runs the command it names');
  if (sub === 'bundle' && args[1] === 'create' && args[2] !== undefined) out.writes.push(args[2]);
}

/**
 * What the options of one command do beyond reading (module docstring). `words` are the command's literal words
 * (bash-command.ts), command name first. Pure; a command without such options gives `{ runs: [], writes: [] }`.
 */
export function optionEffects(words: string[]): OptionEffects {
  const out: OptionEffects = { runs: [], writes: [] };
  const name = base(words[0]);
  if (isGit(words)) gitEffects(words, out);
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (name === 'rg' && optionValue(words, i, '--pre') !== undefined)
      out.runs.push('rg --pre runs the program it names on every file');
    if (name === 'ag' && optionValue(words, i, '--pager') !== undefined)
      out.runs.push('ag --pager runs the program it names');
    if (name === 'find') {
      if (/^-(exec|execdir|ok|okdir)$/.test(w)) out.runs.push(`find ${w} runs the command it names`);
      if (w === '-delete') out.runs.push('find -delete deletes the files it finds');
      if (/^-(fprint|fprint0|fprintf|fls)$/.test(w) && words[i + 1] !== undefined)
        out.writes.push(words[i + 1] as string);
    }
    if (name === 'tree') {
      const v = optionValue(words, i, '--output', '-o');
      if (v !== undefined) out.writes.push(v);
    }
    if (name === 'sort') {
      const v = optionValue(words, i, '--output') ?? sortShortOutput(words, i);
      if (v !== undefined) out.writes.push(v);
      if (optionValue(words, i, '--compress-program') !== undefined)
        out.runs.push('sort --compress-program runs the program it names');
    }
  }
  return out;
}
