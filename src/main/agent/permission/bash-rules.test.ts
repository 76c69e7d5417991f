/**
 * Bash lines against the rules, through the real shell parser (bash-command.ts): an allow rule `git status*`
 * lets through exactly the commands it covers — never a second command hidden by `$'…'` quoting, a comment
 * hiding a quote before a line break, an output redirection, a substitution, a continuation… (hostile list and a
 * fast-check grammar; both print attempts / held). Deny rules see every command, nested ones included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseBash } from './bash-command';
import { decidePermission } from './rules';
import type { PermissionAction, PermissionRule } from './rules';

const bash = (command: string) => ({ tool: 'bash', permission: 'bash' as const, patterns: [command], title: command });
const GIT_STATUS: PermissionRule[] = [{ permission: 'bash', pattern: 'git status*', action: 'allow' }];

async function verdict(rules: PermissionRule[], line: string): Promise<PermissionAction> {
  return decidePermission(rules, [], bash(line), await analyseBash(line)).action;
}

/** Lines that must never be allowed by `git status*` alone (each runs or writes more than git status). */
const HOSTILE = [
  "git status $'\\x3b' rm -rf build",
  "git status $'\\n'rm -rf build",
  "git status # it's\nrm -rf build",
  "git status #'\nrm -rf build\n'",
  'git status\n#\nrm -rf build',
  'git status > .bashrc',
  'git status >> ~/.profile',
  'git status >| out.txt',
  'git status &> out.txt',
  'git status 2> err.txt',
  'git status >out.txt',
  'git status 1>out',
  'git status <> rw.txt',
  'git status >& out.txt',
  'git status && rm -rf build',
  'git status || rm -rf build',
  'git status; rm -rf build',
  'git status | sh',
  'git status |& sh',
  'git status & rm -rf build',
  'git status $(rm -rf build)',
  'git status `rm -rf build`',
  'git status "$(rm -rf build)"',
  'git status <(rm -rf build)',
  'git status >(rm -rf build)',
  'git status $HOME',
  'git status ${IFS}rm',
  'git status $((1))',
  'git status {a,b}',
  'git status ~',
  'git status *',
  'git status ?',
  'git status [ab]',
  'git st\\\natus; rm -rf build',
  'git status \\\nrm -rf build',
  'X=1 git status',
  'GIT_EXTERNAL_DIFF=sh git status',
  '(git status; rm -rf build)',
  '{ git status; rm -rf build; }',
  'f() { rm -rf build; }; git status',
  'if git status; then rm -rf build; fi',
  'git status <<EOF\n$(rm -rf build)\nEOF',
  'git status <<< "$(rm -rf build)"',
  'eval git status',
  'exec git status',
  'git status "unterminated',
  "git status 'unterminated",
  'git status $"translated"',
  '! git status; rm -rf build',
  'git status\rrm -rf build',
  'git status\u00a0&&\u00a0rm -rf build',
  'git status 2>/dev/null $(rm -rf build)',
  'git status 2>/dev/null -s `rm -rf build`',
  'git status 2>/dev/null ~/x',
];

describe('an allow rule for git status covers nothing else', () => {
  it('exactly covered lines are allowed', async () => {
    for (const line of [
      'git status',
      'git status -s',
      "git status --porcelain 'a b'",
      'git status 2>/dev/null',
      'git status >/dev/null 2>&1',
      'git status 2>/dev/null | git status -s',
      '  git status  ',
      'git status # just looking',
      'git status && git status -s',
    ]) {
      expect([line, await verdict(GIT_STATUS, line)]).toEqual([line, 'allow']);
    }
  });

  it('hostile lines: never allowed (attempts / held printed)', async () => {
    let held = 0;
    const leaked: string[] = [];
    for (const line of HOSTILE) {
      if ((await verdict(GIT_STATUS, line)) === 'allow') leaked.push(line);
      else held++;
    }
    console.log(`git status* bypass lines: ${HOSTILE.length} attempts / ${held} held`);
    expect(leaked).toEqual([]);
    expect(held).toBe(HOSTILE.length);
  });

  it('property: dangerous constructs inserted anywhere are never allowed (attempts / held)', async () => {
    const dangerous = fc.constantFrom(
      "$'\\x3b'",
      "$'\\n'",
      '# x\nrm -rf b',
      " #'\nrm -rf b\n'",
      '> f',
      '>> f',
      '>| f',
      '&> f',
      '2> f',
      '; rm -rf b',
      '&& rm -rf b',
      '|| rm -rf b',
      '| sh',
      '& rm -rf b',
      '$(rm -rf b)',
      '`rm -rf b`',
      '<(rm b)',
      '$X',
      '${X}',
      '\\\nrm -rf b',
      '\nrm -rf b',
      '*',
      '~',
      '{a,b}',
      '"$(rm b)"',
      '<<E\nx\nE',
      '<<< x',
      ')',
      '(',
      '2>/dev/null $(rm b)',
      '2>/dev/null ~',
    );
    const safeWord = fc.constantFrom('-s', '--short', '--porcelain', 'src', "'a b'", '"c"', '2>/dev/null');
    let attempts = 0;
    let held = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(safeWord, { maxLength: 3 }),
        fc.array(dangerous, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.constantFrom(' ', '', '\t'),
        async (words, bad, at, sep) => {
          const tokens = ['git', 'status', ...words];
          const pos = at % (tokens.length + 1);
          for (const [i, b] of bad.entries()) tokens.splice(pos + i, 0, b);
          const line = tokens.join(sep === '' ? ' ' : sep);
          attempts++;
          // every line holds at least one construct outside quotes that runs, writes or expands more than
          // `git status` — none is covered by the rule, so none may be allowed
          const action = decidePermission(GIT_STATUS, [], bash(line), await analyseBash(line)).action;
          if (action !== 'allow') held++;
          return action !== 'allow';
        },
      ),
      { numRuns: Number(process.env.LANDFALL_PROPERTY_RUNS ?? 400), seed: 12 },
    );
    console.log(`git status* property: ${attempts} attempts / ${held} held`);
    expect(held).toBe(attempts);
    expect(attempts).toBeGreaterThanOrEqual(400);
  });
});

describe('deny rules see every command', () => {
  const rules: PermissionRule[] = [
    { permission: 'bash', pattern: '*', action: 'allow' },
    { permission: 'bash', pattern: 'rm', action: 'deny' },
  ];
  it('wherever it stands: chained, nested in a substitution, in bash -c, by path', async () => {
    const lines = [
      'ls && rm -rf x',
      'ls; rm x',
      'ls || rm x',
      'ls\nrm x',
      'ls & rm x',
      'true | rm x',
      'echo $(rm -rf x)',
      'echo `rm x`',
      "bash -c 'rm -rf x'",
      "sh -c 'ls; rm -rf x'",
      '/bin/rm -rf x',
      'cat <(rm x)',
    ];
    let held = 0;
    for (const line of lines) if ((await verdict(rules, line)) === 'deny') held++;
    console.log(`deny rm* bypass lines: ${lines.length} attempts / ${held} held`);
    expect(held).toBe(lines.length);
    expect(await verdict(rules, 'echo "rm x; rm y"')).toBe('allow');
  });

  it('an unproven line is asked even under allow *, and a deny still denies it', async () => {
    expect(await verdict(rules, 'echo $(date)')).toBe('ask');
    expect(await verdict(rules, 'echo $HOME')).toBe('ask');
    expect(await verdict([{ permission: 'bash', pattern: 'echo', action: 'deny' }], 'echo $(ls)')).toBe('deny');
  });
});
