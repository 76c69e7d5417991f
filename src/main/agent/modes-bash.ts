/**
 * Bash in a read-only mode (plan): a command line runs without a question only when the parser proves it reads
 * (bash-command.ts: every word literal, no substitution) — every command in it is a reading command, nothing is
 * redirected into a file, no option runs a program or writes a file (bash-options.ts: `git grep -O…`,
 * `rg --pre …`, `git diff --ext-diff`, `git --exec-path=…`, `--output=…`) — AND the rules allow it. Anything else is asked, with the reason, even where the rules
 * say allow; a deny rule still denies. The list is deliberately short: a command missing from it is asked, which
 * costs a click; a wrong entry would let plan mode change files.
 */
import type { AskPermission, PermissionRequest } from '../tools/types';
import { analyseBash } from './permission/bash-command';
import type { BashAnalysis } from './permission/bash-command';
import type { PermissionGate } from './permission/gate';
import { gitArgs, gitRunsProgramsReason } from './permission/bash-git';
import { optionEffects } from './permission/bash-options';

const READING = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'tree',
  'du',
  'stat',
  'file',
  'diff',
  'pwd',
  'echo',
  'which',
]);

/** git subcommands that only read (no flag of theirs writes the work tree or `.git`, with no output file given). */
const GIT_READING = new Set(['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'rev-parse', 'grep']);

function base(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** True when one command's literal words read only (see the module docstring). */
export function readingCommand(words: string[]): boolean {
  const name = base(words[0] ?? '');
  if (words.some((w) => /^--output(=|$)/.test(w) || w === '-o')) return false;
  const effects = optionEffects(words);
  if (effects.runs.length > 0 || effects.writes.length > 0) return false;
  if (READING.has(name)) return true;
  if (name === 'find')
    return !words.some((w) => /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(w));
  if (name === 'git') {
    if (gitRunsProgramsReason(words) !== undefined) return false;
    const sub = gitArgs(words)[0];
    return sub !== undefined && GIT_READING.has(sub);
  }
  return false;
}

/** Why `bash` is not proven read-only, or undefined when it is. */
export function notReadOnly(bash: BashAnalysis): string | undefined {
  if (bash.writeTargets.length > 0) return `it writes output to ${bash.writeTargets.join(', ')}`;
  for (const c of bash.commands) {
    const runs = c.words ? optionEffects(c.words).runs : [];
    if (runs.length > 0) return runs.join('; ');
  }
  if (bash.unproven.length > 0) return `its words are not all known before it runs (${bash.unproven.join(', ')})`;
  for (const c of bash.commands) {
    if (!c.words || c.words.length === 0) return `${c.text} cannot be read word by word`;
    if (!readingCommand(c.words)) return `${base(c.words[0] ?? '')} is not one of the commands plan mode runs unasked`;
  }
  return undefined;
}

/**
 * The permission side of a read-only mode: `gate`, except that a bash request not proven read-only carries
 * `askAnyway` (the gate asks although the rules allow; gate.ts).
 */
export function readOnlyBashGate(
  gate: Pick<PermissionGate, 'askFor' | 'guardFor'>,
  modeName: string,
): Pick<PermissionGate, 'askFor' | 'guardFor'> {
  return {
    guardFor: (sessionId, root) => gate.guardFor(sessionId, root),
    askFor(sessionId, partId, root): AskPermission {
      const ask = gate.askFor(sessionId, partId, root);
      return async (request: PermissionRequest) => {
        if (request.permission !== 'bash') return ask(request);
        const why = notReadOnly(await analyseBash(request.patterns.join('\n')));
        if (why === undefined) return ask(request);
        return ask({
          ...request,
          askAnyway: `${modeName} mode is read-only and this command may change files: ${why}`,
        });
      };
    },
  };
}
