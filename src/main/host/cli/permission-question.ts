/**
 * `landfall run`'s permission questions on the terminal, one at a time. Each names exactly what it answers
 * ("Allow bash `rm -rf build`?") and what "always" would allow; type-ahead is thrown away before each one and the
 * question says how much (terminal-input.ts). Answers: `o` once, `a` always (exactly what is shown), `p <words>`
 * always for a pattern (only where the question offers it), `r [reason]` reject. Anything else, an empty line
 * or the end of the input rejects — nothing is allowed by accident.
 */
import type { PermissionAsk as Ask, PermissionReply } from '../../../shared/permission-schemas';
import type { Result } from '../../../shared/errors';
import type { TerminalInput } from './terminal-input';

/** "bash `rm -rf build`", "change src/a.ts", "write into the repository's own git folder: .git/config …". */
export function askedWhat(e: Ask): string {
  const what = e.patterns.join(', ') || e.title;
  switch (e.permission) {
    case 'bash':
      return `bash \`${what}\``;
    case 'edit':
      return `${e.tool} to change ${what}`;
    case 'read':
      return `${e.tool} to read ${what}`;
    case 'external_directory':
      return `${e.tool} to reach outside the project: ${what}`;
    case 'git_dir':
      return `${e.tool} to write into the repository's own git folder (${what}); Landfall's undo cannot restore it`;
  }
}

/** The whole question, with the choices the event offers. */
export function questionText(e: Ask, discarded: number): string {
  const lines = [''];
  if (discarded > 0) lines.push(`(discarded ${discarded} characters typed ahead)`);
  if (e.permission === 'bash' && e.title !== e.patterns[0]) lines.push(`  the model says: ${e.title}`);
  for (const r of e.reasons ?? []) lines.push(`  asked because ${r}`);
  const always = e.always;
  const choices = ['[o]nce'];
  if (always) choices.push(`[a]lways exactly this (${always.exact.join(', ')})`);
  if (always?.editable) choices.push('[p]attern <words> (always: commands starting with those words)');
  choices.push('[r]eject (r <reason>)');
  lines.push(`? Allow ${askedWhat(e)}? ${choices.join(' / ')}: `);
  return lines.join('\n');
}

/** The reply a typed line means (module docstring); undefined input: the terminal ended. */
export function replyFor(line: string | undefined, e: Ask): PermissionReply {
  if (line === undefined) return { answer: 'reject', reason: 'no answer: the terminal input ended' };
  const word = line.split(/\s+/)[0]?.toLowerCase() ?? '';
  const rest = line.slice(word.length).trim();
  if (word === 'o' || word === 'once' || word === 'y' || word === 'yes') return { answer: 'once' };
  if ((word === 'a' || word === 'always') && e.always) return { answer: 'always' };
  if ((word === 'p' || word === 'pattern') && e.always?.editable && rest !== '')
    return { answer: 'always', pattern: rest };
  if (word === 'r' || word === 'reject' || word === 'n' || word === 'no')
    return rest ? { answer: 'reject', reason: rest } : { answer: 'reject' };
  return { answer: 'reject', reason: `not allowed: the answer "${line}" is not one of the choices` };
}

/**
 * Asks every `permission.asked` event on the terminal in turn and sends the answer; a refused answer (a
 * pattern that does not fit) is said and the question asked again.
 */
export class TerminalPermissions {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly input: TerminalInput,
    private readonly answer: (requestId: string, reply: PermissionReply) => Result<void>,
    private readonly stillWaiting: (requestId: string) => boolean,
    private readonly out: (s: string) => void,
  ) {}

  /** Queue the question of `e`. */
  ask(e: Ask): void {
    this.queue = this.queue.then(() => this.one(e));
  }

  private async one(e: Ask): Promise<void> {
    for (;;) {
      this.out(questionText(e, this.input.discardTypeAhead()));
      const reply = replyFor(await this.input.line(), e);
      const r = this.answer(e.requestId, reply);
      if (r.ok || !this.stillWaiting(e.requestId)) return;
      this.out(`${r.error.message} ${r.error.hint}\n`);
    }
  }
}
