/**
 * Plan mode's bash rule (modes-bash.ts) as a safety property: a line that runs any command outside the short
 * reading list, writes through a redirection, or hides words behind a substitution is never "read-only" (it is
 * asked); reading lines are. Hostile lines are generated (fast-check) and the count is printed as attempts / held.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseBash } from './permission/bash-command';
import { notReadOnly } from './modes-bash';

const WRITERS = ['rm', 'mv', 'cp', 'touch', 'tee', 'chmod', 'mkdir', 'npm', 'node', 'python3', 'sh', 'bash', 'dd'];
const SAFE_ARG = fc.stringMatching(/^[a-z0-9._/-]{1,12}$/).filter((w) => !w.startsWith('-'));

async function readOnly(line: string): Promise<boolean> {
  return notReadOnly(await analyseBash(line)) === undefined;
}

describe('plan mode bash: read-only lines', () => {
  it('reading lines run unasked', async () => {
    for (const line of [
      'ls -la',
      'cat a.txt | wc -l',
      'git status',
      'git log --oneline -5',
      'rg foo src',
      'find . -name "*.ts"',
    ])
      expect([line, await readOnly(line)]).toEqual([line, true]);
  });

  it('named writers, git writers, in-place edits, exec and output files are asked, with the reason', async () => {
    const cases: [string, string][] = [
      ['rm -rf src', 'rm is not one of the commands plan mode runs unasked'],
      ['git commit -m x', 'git is not one of the commands plan mode runs unasked'],
      ['git -c core.pager=x log', 'git is not one of the commands plan mode runs unasked'],
      ['sed -i s/a/b/ f', 'sed is not one of the commands plan mode runs unasked'],
      ['find . -delete', 'find -delete deletes the files it finds'],
      ['echo hi > out.txt', 'it writes output to out.txt'],
      ['cat $(echo a)', 'its words are not all known before it runs'],
      ['ls; rm a', 'rm is not one of the commands plan mode runs unasked'],
      ['git diff --output=x.patch', 'it writes output to x.patch'],
      ['git log -p --output x.patch', 'it writes output to x.patch'],
      ['git grep -Orm foo', 'git grep -Orm: -O opens the files in a program it names'],
      ['git grep -iO foo', 'git grep -iO: -O opens the files in a program it names'],
      ['git grep --open-files-in-pager=sh foo', 'git grep --open-files-in-pager=sh opens the files'],
      ['rg --pre ./x.sh foo', 'rg --pre runs the program it names'],
      ['rg --pre=./x.sh foo', 'rg --pre runs the program it names'],
      ['git diff --ext-diff', 'git diff --ext-diff runs an external diff program'],
      ['git show --ext-diff HEAD', 'git show --ext-diff runs an external diff program'],
      ['git --exec-path=/tmp/x status', 'git is not one of the commands plan mode runs unasked'],
      ['git --config-env=core.pager=P log', 'git is not one of the commands plan mode runs unasked'],
      ['tree -o listing.txt', 'it writes output to listing.txt'],
      ['find . -fprint out.txt', 'it writes output to out.txt'],
    ];
    for (const [line, why] of cases)
      expect([line, notReadOnly(await analyseBash(line))]).toEqual([line, expect.stringContaining(why)]);
  });

  it('property: a line holding any writer command, or any redirection into a file, is never read-only', async () => {
    let attempts = 0;
    let held = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('ls', 'cat x', 'git status', 'grep a b'), { maxLength: 3 }),
        fc.constantFrom(...WRITERS),
        fc.array(SAFE_ARG, { maxLength: 3 }),
        fc.constantFrom(';', '&&', '||', '|'),
        fc.boolean(),
        async (reading, writer, args, sep, redirect) => {
          attempts++;
          const hostile = redirect ? `${reading[0] ?? 'echo a'} > ${args[0] ?? 'out'}` : [writer, ...args].join(' ');
          const line = [...reading, hostile].join(` ${sep} `);
          const ok = !(await readOnly(line));
          if (ok) held++;
          return ok;
        },
      ),
      { numRuns: 300 },
    );
    console.log(`plan mode bash read-only rule: ${attempts} attempts / ${held} held`);
    expect(held).toBe(attempts);
  });
});
