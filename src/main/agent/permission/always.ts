/**
 * What an "always" answer saves (rules.ts PermissionGrant), and what the prompt says it will save.
 *
 * - Paths (read, edit, external_directory): exactly the paths the prompt showed — compared as strings, never as
 *   globs (a file named `src/[id].tsx` does not grant `src/i.tsx`).
 * - Bash: exactly the line the prompt showed, after normalisation (its canonical form, bash-command.ts: same
 *   words, same operators; an unproven line by its exact text). Or, when the line is ONE proven command that
 *   is not an interpreter, a command runner or a destructive command (bash-risk.ts), a pattern the user edited
 *   in the prompt: it must still cover the command asked, and it is judged like an allow rule afterwards
 *   (never lets an unproven line through). A pattern sent for any other line is refused.
 * - `git_dir`: no "always" at all; every write into a `.git` folder is asked.
 */
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { AlwaysOffer } from '../../../shared/permission-schemas';
import type { PermissionRequest } from '../../tools/types';
import type { BashAnalysis } from './bash-command';
import { neverWidenReason } from './bash-risk';
import { bashPatternMatches } from './rules';
import type { PermissionGrant } from './rules';

/** The "always" offer for a request (null: no "always" for it). `bash` is the line's analysis for bash requests. */
export function alwaysOffer(request: PermissionRequest, bash?: BashAnalysis): AlwaysOffer | null {
  if (request.permission === 'git_dir') return null;
  if (request.permission !== 'bash') return { exact: [...request.patterns], editable: false, note: 'only these paths' };
  if (!bash) return null;
  const exact = bash.canonical ?? bash.line.trim();
  const top = bash.commands.filter((c) => !c.nested);
  if (bash.canonical === undefined)
    return { exact: [exact], editable: false, note: 'it cannot be checked word by word, so only this exact line' };
  if (top.length !== 1 || bash.commands.length !== 1)
    return { exact: [exact], editable: false, note: 'it runs several commands, so only this exact line' };
  const why = neverWidenReason(top[0]?.words);
  if (why) return { exact: [exact], editable: false, note: `${why}, so only this exact command` };
  return {
    exact: [exact],
    editable: true,
    note: 'or edit it into a pattern: commands starting with the words you leave',
  };
}

/**
 * The grant an "always" answer saves. `pattern` is what the user edited in the prompt (absent or equal to the
 * offer: the exact grant). Error `invalid_input` when a pattern is not allowed here (exact only, no "always" for
 * this request, or a pattern that does not cover the command asked) — the question then stays open.
 */
export function grantFromAnswer(
  request: PermissionRequest,
  bash: BashAnalysis | undefined,
  pattern?: string,
): Result<PermissionGrant> {
  const offer = alwaysOffer(request, bash);
  if (!offer)
    return fail(
      'invalid_input',
      `"Always" is not offered for ${request.permission}: every such call is asked.`,
      'Answer once or reject.',
    );
  const edited = pattern?.trim().replace(/\s+/g, ' ');
  if (edited === undefined || edited === '' || offer.exact.includes(edited))
    return ok({ kind: 'exact', permission: request.permission, values: offer.exact });
  if (!offer.editable || request.permission !== 'bash')
    return fail(
      'invalid_input',
      `No pattern can be saved here: ${offer.note}.`,
      'Answer always without a pattern, or once.',
    );
  const words = bash?.commands[0]?.words ?? [];
  if (edited.replace(/\*+$/, '').trim() === '')
    return fail(
      'invalid_input',
      'A pattern must keep at least the command name.',
      'Write the first words of the commands to allow (e.g. "npm test").',
    );
  if (!bashPatternMatches(edited, words))
    return fail(
      'invalid_input',
      `The pattern "${edited}" does not cover the command asked (${offer.exact[0]}).`,
      'Keep the first words of the command in the pattern (e.g. "npm test" for "npm test -- --watch").',
    );
  return ok({ kind: 'pattern', permission: 'bash', pattern: edited });
}

/** What a grant allows, in words for the prompt's answer and the event log. */
export function grantText(grant: PermissionGrant): string[] {
  return grant.kind === 'exact' ? grant.values : [`${grant.pattern} …`];
}
