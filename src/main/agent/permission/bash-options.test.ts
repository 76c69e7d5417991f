/**
 * Options that make a reading command run a program or write a file the line names (bash-options.ts): an allow
 * rule for the reading command never lets them through, "always" never widens them, and a file such an option
 * writes is checked like a redirection's target (a `.git` path asks `git_dir`). The end-to-end case runs real
 * git in a real repository through the agent loop: the program `git grep -O` names is asked, and rejected, never
 * runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { alwaysOffer } from './always';
import { analyseBash } from './bash-command';
import { bashFacts } from './bash-facts';
import { optionEffects } from './bash-options';
import { decidePermission } from './rules';
import type { PermissionAction, PermissionRule } from './rules';

const bash = (command: string) => ({ tool: 'bash', permission: 'bash' as const, patterns: [command], title: command });
const READERS: PermissionRule[] = [
  'git grep',
  'git diff',
  'git log',
  'git show',
  'git fetch',
  'rg',
  'ag',
  'find',
  'tree',
  'sort',
  'git rebase',
  'git clone',
  'git ls-remote',
  'git diff-files',
  'git diff-tree',
  'git stash',
  'git archive',
  'git difftool',
].map((pattern) => ({ permission: 'bash', pattern: `${pattern}*`, action: 'allow' }));

async function verdict(rules: PermissionRule[], line: string): Promise<PermissionAction> {
  return decidePermission(rules, [], bash(line), await analyseBash(line)).action;
}

/** Each line runs a program or writes a file its reading command's allow rule never meant to allow. */
const HOSTILE = [
  'git grep -Osh foo',
  "git grep -O'touch pwned' foo",
  'git grep -iOvim foo',
  'git grep -n -O foo',
  'git grep --open-files-in-pager foo',
  'git grep --open-files-in-pager=./x.sh foo',
  'git -C . grep -Ox foo',
  'git diff --ext-diff',
  'git log -p --ext-diff',
  'git show --ext-diff HEAD',
  'git diff --output=/tmp/x',
  'git diff --output /tmp/x',
  'git log --output=src/app.ts',
  'git show --output=.bashrc HEAD',
  'git fetch --upload-pack=./x.sh ../other',
  'git fetch --upload-pack ./x.sh ../other',
  'rg --pre ./x.sh foo',
  'rg --pre=./x.sh foo',
  'rg -n --pre sh foo src',
  'ag --pager ./x.sh foo',
  'find . -exec rm {} ;',
  'find . -execdir sh -c x ;',
  'find . -ok rm {} ;',
  'find . -delete',
  'find . -fprint out.txt',
  'find . -fls out.txt',
  'tree -o listing.txt',
  'sort -o a.txt b.txt',
  'sort --output=a.txt b.txt',
  'sort -ro a.txt b.txt',
  'sort -rout.txt b.txt',
  // a second attacker: unambiguous long-option prefixes, plumbing diffs, -u, sort's compressor
  "git grep --open-files='touch pwned' needle",
  'git grep --open=x needle',
  'git grep --open-files-in-pag=x needle',
  "git fetch --upload='touch P; git-upload-pack' ../o",
  "git rebase --exe='touch P' main",
  'git diff-files --output=F -p',
  'git diff-tree --output=F HEAD',
  'git diff-tree --ext-diff HEAD',
  'git diff --ext HEAD',
  'git log --outp=F',
  'git stash show --output=F',
  'git difftool --extc=X',
  'git archive --exe=X --remote=../o HEAD',
  'git archive --outp=F HEAD',
  'git ls-remote -u X ../o',
  'git clone -u X ../o d',
  'sort --out=F b.txt',
  'sort --o=F b.txt',
  'sort --outp F b.txt',
  'sort --compress-program=P b.txt',
  'sort --compress=P b.txt',
  'ag --pag=X foo',
  'ag --pa X foo',
  'tree --output F',
];

describe('options that run programs or write files are never covered by a reading command’s allow rule', () => {
  it('hostile lines are asked under the readers’ allow rules (attempts / held)', async () => {
    let held = 0;
    const leaked: string[] = [];
    for (const line of HOSTILE) {
      if ((await verdict(READERS, line)) === 'ask') held++;
      else leaked.push(line);
    }
    console.log(`reader-option bypass lines under reader allow rules: ${HOSTILE.length} attempts / ${held} held`);
    expect(leaked).toEqual([]);
  });

  it('the same commands without such options are still allowed', async () => {
    for (const line of [
      'git grep -n foo',
      'git grep -e -x foo',
      'git diff main',
      'git diff -Oorder.txt',
      'git log --oneline -5',
      'git show --stat HEAD',
      'git fetch origin',
      'rg -n foo src',
      'rg --pre-glob "*.gz" foo',
      'find . -name "*.ts"',
      'tree -L 2',
      'sort b.txt',
      'sort -k2 -t, b.txt',
    ])
      expect([line, await verdict(READERS, line)]).toEqual([line, 'allow']);
  });

  it('the reason says which option, and "always" offers only the exact line', async () => {
    const a = await analyseBash('rg --pre ./x.sh foo');
    expect(a.unproven).toEqual(['rg --pre runs the program it names on every file']);
    expect(alwaysOffer(bash(a.line), a)?.editable).toBe(false);
    const d = await analyseBash('git diff --output=out.patch');
    expect(d.writeTargets).toEqual(['out.patch']);
    expect(d.unproven).toEqual(['git writes a file an option names (out.patch)']);
    expect(optionEffects(['git', 'format-patch', '-o', 'patches', 'HEAD~2'])).toEqual({
      runs: [],
      writes: ['patches'],
    });
    expect(optionEffects(['git', 'bundle', 'create', 'r.bundle', 'HEAD'])).toEqual({ runs: [], writes: ['r.bundle'] });
    expect(optionEffects(['git', 'rebase', '-x', 'make', 'main']).runs).toEqual([
      'git rebase -x runs the command it names',
    ]);
  });

  it('a file an option writes into .git is a git_dir write', async () => {
    const guard = { withheld: () => undefined };
    const facts = async (line: string) => (await bashFacts(await analyseBash(line), undefined, guard)).gitDir;
    expect(await facts('git diff --output=.git/hooks/pre-commit')).toEqual([
      'output is written to .git/hooks/pre-commit: .git/hooks/pre-commit is inside a .git folder',
    ]);
    expect(await facts('git log --output .git/config')).not.toEqual([]);
    expect(await facts('tree -o .git/hooks/post-checkout')).not.toEqual([]);
    expect(await facts('git diff --stat')).toEqual([]);
  });
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('through the agent loop, with real git', () => {
  it('git grep -O under an allow rule for git grep is asked, and rejected, its program never runs', async () => {
    h = await harness();
    const x = h;
    execFileSync('git', ['init', '-q'], { cwd: x.root });
    writeFileSync(path.join(x.root, 'a.txt'), 'needle\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: x.root });
    await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [{ permission: 'bash', pattern: 'git grep*', action: 'allow' }],
    });
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    await x.svc.runWithModel(
      s,
      scripted([
        [
          { callId: 'ok', toolName: 'bash', input: { command: 'git grep -n needle' } },
          { callId: 'bad', toolName: 'bash', input: { command: "git grep -O'touch pwned' needle" } },
        ],
      ]),
      'go',
    );
    expect(asked.map((e) => [e.permission, e.patterns])).toEqual([['bash', ["git grep -O'touch pwned' needle"]]]);
    expect(asked[0]?.reasons).toEqual(['git grep -Otouch pwned: -O opens the files in a program it names']);
    // the same line run by hand creates `pwned` (git runs `touch pwned a.txt`)
    expect(existsSync(path.join(x.root, 'pwned'))).toBe(false);
  });
});
