/**
 * What the gate checks on a bash line beyond its rules, on the file system: which words name a repository's own
 * git folder, its hooks folder (`core.hooksPath`) or a file of its configuration chain (tools/git-dir.ts
 * `guardedPlaces`, read once per line), or make git run other programs or write its configuration (asked as
 * `git_dir`, bash-git.ts `gitConfigReason`), and which name a file the model may not see (asked, with the reason
 * in the prompt). Words are judged as written and by real path (reveal-policy.ts relForms), so a symlink
 * alias of `.git/hooks` or of `.env` counts.
 */
import type { RevealGuard } from '../../tools/types';
import { guardedPlaceOf, guardedPlaces, inGitDir, nestedPlaces, type GuardedPlace } from '../../tools/git-dir';
import type { BashAnalysis } from './bash-command';
import { gitConfigReason } from './bash-git';
import { namesGitDir, readsOnly } from './bash-risk';
import { relForms } from './reveal-policy';

export interface BashFacts {
  /** Why the line reaches into a `.git` folder (empty: it does not, as far as the parser can tell). */
  gitDir: string[];
  /** Why the line is asked although the rules might allow it: it names files the model may not see. */
  withheld: string[];
}

/** The facts of `bash` run in `root` (absolute, real); `guard` is the read policy in force. */
export async function bashFacts(bash: BashAnalysis, root: string | undefined, guard: RevealGuard): Promise<BashFacts> {
  const gitDir = new Set<string>();
  const withheld = new Set<string>();
  const places = root === undefined ? [] : await guardedPlaces(root);
  const nested = new Map<string, GuardedPlace[]>();
  const intoGit = async (w: string): Promise<string | undefined> => {
    if (namesGitDir(w)) return `${w} is inside a .git folder`;
    if (root === undefined) return undefined;
    const forms = await relForms(root, optionValue(w));
    const rel = forms.find(inGitDir);
    if (rel) return `${w} leads into ${rel}, inside a .git folder`;
    for (const f of forms) {
      const place = guardedPlaceOf(f, places) ?? guardedPlaceOf(f, await nestedPlaces(root, f, nested));
      if (place) return `${w} ${place.folder ? 'is in' : 'is'} ${place.rel || 'the project'}, ${place.why}`;
    }
    return undefined;
  };
  for (const c of bash.commands) {
    const why = gitConfigReason(c.words);
    if (why) gitDir.add(`${c.text}: ${why}`);
    if (readsOnly(c.words)) continue;
    for (const w of c.looseWords.slice(1)) {
      const why = await intoGit(w);
      if (why) gitDir.add(why);
    }
  }
  for (const t of bash.writeTargets) {
    const why = await intoGit(t);
    if (why) gitDir.add(`output is written to ${t}: ${why}`);
  }
  if (root === undefined) return { gitDir: [...gitDir], withheld: [] };
  for (const word of new Set(bash.pathWords)) {
    const w = optionValue(word);
    if (w === '' || w.startsWith('-')) continue;
    for (const rel of await relForms(root, w)) {
      const why = guard.withheld(rel, true);
      if (why) withheld.add(`it names ${w}${rel === w ? '' : ` (${rel})`}, and ${why}`);
    }
  }
  return { gitDir: [...gitDir], withheld: [...withheld] };
}

/** The path an option names (`--file=.env` → `.env`); other words as they are. */
function optionValue(word: string): string {
  return word.startsWith('-') ? word.slice(word.indexOf('=') + 1) : word;
}
