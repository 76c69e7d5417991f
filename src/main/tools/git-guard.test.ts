/**
 * The git guard around symlinks and git's configuration chain (tools/git-dir.ts `guardedPlaces`, `gitControlled`;
 * tools/git-config-chain.ts), with real git and real repositories in temp folders: a hooks folder reached through
 * a symlink (`core.hooksPath=.husky` with `.husky -> tools/hooks`, `.git/hooks -> ../scripts/hooks`, a symlinked
 * parent of the configured folder), a git folder inside the work tree (`.git` file `gitdir: gitdata`), symlinks in
 * the git folder or the hooks folder that lead into the work tree, work-tree files the config chain includes
 * (`[include]`, `[includeIf]` whatever its condition, recursively, from every config), and `core.hooksPath` set in
 * an include whose condition does not hold yet. Each case is one attempt: held when the file it names is a
 * `git_dir` write and an ordinary file is not. HOME, XDG_CONFIG_HOME and the system config point at temp files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseGitConfig } from './git-config-chain';
import { gitControlled, guardedPlaces } from './git-dir';
import { gitSandbox } from './git-test-env';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  ({ base, root, home } = gitSandbox('gitguard'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(base, { recursive: true, force: true });
});

const tally = { attempts: 0, held: 0 };
afterAll(() => console.log(`git-guard symlink/include attempts: ${tally.attempts} held: ${tally.held}`));

const put = (rel: string, text: string, at = root): void => {
  const file = path.join(at, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { flag: 'a' });
};
const link = (target: string, rel: string): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  symlinkSync(target, path.join(root, rel));
};

/** Each case: how to set it up, and the root-relative real paths a write to which must be a `git_dir` write. */
const CASES: { name: string; set: () => void; guarded: string[] }[] = [
  {
    name: 'core.hooksPath=.husky with .husky -> tools/hooks (F2)',
    set: () => {
      put('.git/config', '[core]\n\thooksPath = .husky\n');
      mkdirSync(path.join(root, 'tools/hooks'), { recursive: true });
      link('tools/hooks', '.husky');
    },
    guarded: ['tools/hooks/pre-commit', '.husky/pre-commit'],
  },
  {
    name: 'core.hooksPath=.husky with .husky -> tools/hooks, tools/hooks not created yet (dangling link)',
    set: () => {
      put('.git/config', '[core]\n\thooksPath = .husky\n');
      link('tools/hooks', '.husky');
    },
    guarded: ['tools/hooks/pre-commit'],
  },
  {
    name: '.git/hooks -> ../scripts/hooks (F3)',
    set: () => {
      rmSync(path.join(root, '.git/hooks'), { recursive: true, force: true });
      mkdirSync(path.join(root, 'scripts/hooks'), { recursive: true });
      link('../scripts/hooks', '.git/hooks');
    },
    guarded: ['scripts/hooks/pre-commit', 'scripts/hooks/post-checkout'],
  },
  {
    name: 'core.hooksPath=cfg/hooks with its parent cfg -> conf (F4)',
    set: () => {
      put('.git/config', '[core]\n\thooksPath = cfg/hooks\n');
      mkdirSync(path.join(root, 'conf/hooks'), { recursive: true });
      link('conf', 'cfg');
    },
    guarded: ['conf/hooks/pre-commit'],
  },
  {
    name: 'a .git file whose gitdir: lies in the work tree (gitdata/)',
    set: () => {
      rmSync(path.join(root, '.git'), { recursive: true, force: true });
      execFileSync('git', ['init', '-q', '-b', 'main', `--separate-git-dir=${path.join(root, 'gitdata')}`, root]);
    },
    guarded: ['gitdata/config', 'gitdata/hooks/pre-commit', 'gitdata/info/attributes'],
  },
  {
    name: '.git itself a symlink to store/ in the work tree',
    set: () => {
      renameSync(path.join(root, '.git'), path.join(root, 'store'));
      link('store', '.git');
    },
    guarded: ['store/config', 'store/hooks/pre-commit'],
  },
  {
    name: '.git/config -> ../cfg (a symlink entry of the git folder)',
    set: () => {
      renameSync(path.join(root, '.git/config'), path.join(root, 'cfg'));
      link('../cfg', '.git/config');
    },
    guarded: ['cfg'],
  },
  {
    name: '.git/hooks/pre-commit -> ../../scripts/pc.sh (a symlink entry of the hooks folder)',
    set: () => {
      put('scripts/pc.sh', '#!/bin/sh\n');
      link('../../scripts/pc.sh', '.git/hooks/pre-commit');
    },
    guarded: ['scripts/pc.sh'],
  },
  {
    name: '.git/hooks/post-merge -> ../../scripts/pm.sh, pm.sh not created yet',
    set: () => link('../../scripts/pm.sh', '.git/hooks/post-merge'),
    guarded: ['scripts/pm.sh'],
  },
  {
    name: '.git/hooks -> ../scripts/hooks holding pre-push -> ../pp.sh (relative to the real folder), pp.sh not created yet',
    set: () => {
      rmSync(path.join(root, '.git/hooks'), { recursive: true, force: true });
      mkdirSync(path.join(root, 'scripts/hooks'), { recursive: true });
      link('../scripts/hooks', '.git/hooks');
      link('../pp.sh', 'scripts/hooks/pre-push');
    },
    guarded: ['scripts/pp.sh'],
  },
  {
    name: '[include] path = ../link/../evil.cfg with link -> deep/dir (`..` taken physically, as git opens it)',
    set: () => {
      mkdirSync(path.join(root, 'deep/dir'), { recursive: true });
      link('deep/dir', 'link');
      put('.git/config', '[include]\n\tpath = ../link/../evil.cfg\n');
    },
    guarded: ['deep/evil.cfg'],
  },
  {
    name: 'core.hooksPath = hk/../hooks2 with hk -> x/y',
    set: () => {
      mkdirSync(path.join(root, 'x/y'), { recursive: true });
      link('x/y', 'hk');
      put('.git/config', '[core]\n\thooksPath = hk/../hooks2\n');
    },
    guarded: ['x/hooks2/pre-commit'],
  },
  {
    name: '.husky/pre-commit -> ../scripts/pc.sh in the core.hooksPath folder',
    set: () => {
      put('.git/config', '[core]\n\thooksPath = .husky\n');
      put('scripts/pc.sh', '#!/bin/sh\n');
      link('../scripts/pc.sh', '.husky/pre-commit');
    },
    guarded: ['scripts/pc.sh'],
  },
  {
    name: '[include] path = ../.gitconfig in .git/config (F5)',
    set: () => put('.git/config', '[include]\n\tpath = ../.gitconfig\n'),
    guarded: ['.gitconfig'],
  },
  {
    name: '[include] of ../.gitconfig where .gitconfig -> conf/git.cfg',
    set: () => {
      put('.git/config', '[include]\n\tpath = ../.gitconfig\n');
      put('conf/git.cfg', '');
      link('conf/git.cfg', '.gitconfig');
    },
    guarded: ['.gitconfig', 'conf/git.cfg'],
  },
  {
    name: 'includes of includes, each relative to its including file',
    set: () => {
      put('.git/config', '[include]\n\tpath = ../cfg/a.cfg\n');
      put('cfg/a.cfg', '[include]\n\tpath = b/c.cfg\n');
      put('cfg/b/c.cfg', '[include]\n\tpath = ../../d.cfg\n');
    },
    guarded: ['cfg/a.cfg', 'cfg/b/c.cfg', 'd.cfg'],
  },
  {
    name: '[includeIf "gitdir:/nowhere/"] whose condition does not hold',
    set: () => put('.git/config', '[includeIf "gitdir:/nowhere/"]\n\tpath = ../never.cfg\n'),
    guarded: ['never.cfg'],
  },
  {
    name: '[include] in ~/.gitconfig naming a project file through ~/',
    set: () => put('.gitconfig', '[include]\n\tpath = ~/../project/team.cfg\n', home),
    guarded: ['team.cfg'],
  },
  {
    name: '[include] in the system config',
    set: () => put('system-gitconfig', `[include]\n\tpath = ${path.join(root, 'sys.cfg')}\n`, base),
    guarded: ['sys.cfg'],
  },
  {
    name: '[include] in the worktree config (config.worktree)',
    set: () => {
      execFileSync('git', ['-C', root, 'config', 'extensions.worktreeConfig', 'true']);
      put('.git/config.worktree', '[include]\n\tpath = ../wt.cfg\n');
    },
    guarded: ['wt.cfg'],
  },
  {
    name: 'include.path from GIT_CONFIG_PARAMETERS',
    set: () => vi.stubEnv('GIT_CONFIG_PARAMETERS', `'include.path'='${path.join(root, 'env.cfg')}'`),
    guarded: ['env.cfg'],
  },
  {
    name: 'an include cycle (a.cfg ↔ b.cfg) ends, both guarded',
    set: () => {
      put('.git/config', '[include]\n\tpath = ../a.cfg\n');
      put('a.cfg', '[include]\n\tpath = b.cfg\n');
      put('b.cfg', '[include]\n\tpath = a.cfg\n');
    },
    guarded: ['a.cfg', 'b.cfg'],
  },
  {
    name: 'core.hooksPath in [includeIf "onbranch:later"] (F6)',
    set: () => {
      put('.git/config', '[includeIf "onbranch:later"]\n\tpath = ../branch.cfg\n');
      put('branch.cfg', '[core]\n\thooksPath = later-hooks\n');
    },
    guarded: ['later-hooks/pre-commit', 'branch.cfg'],
  },
  {
    name: 'core.hooksPath in [includeIf "hasconfig:…"] outside the project, on the header line, quoted',
    set: () => {
      put('.gitconfig', `[includeIf "hasconfig:remote.*.url:https://nowhere/**"]\n\tpath = ../cond.cfg\n`, home);
      put('cond.cfg', '[core] hooksPath = "odd \\"hooks\\"" ; a comment\n', base);
    },
    guarded: ['odd "hooks"/pre-commit'],
  },
  {
    name: 'core.hooksPath in a legacy-section [includeIf.someday] include',
    set: () => {
      put('.git/config', '[includeIf.someday]\n\tpath = ../legacy.cfg\n');
      put('legacy.cfg', '[CORE]\n\tHOOKSPATH = legacy-hooks\n');
    },
    guarded: ['legacy-hooks/x', 'legacy.cfg'],
  },
];

describe('symlinks and git config includes lead to no unasked write (attempts / held)', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      c.set();
      tally.attempts++;
      const guarded = await Promise.all(c.guarded.map((rel) => gitControlled(root, rel)));
      const ordinary = await Promise.all(['src/app.ts', 'README.md'].map((rel) => gitControlled(root, rel)));
      if (guarded.every(Boolean) && !ordinary.some(Boolean)) tally.held++;
      expect({ guarded, ordinary }).toEqual({ guarded: c.guarded.map(() => true), ordinary: [false, false] });
    });
  }
});

describe('what is not guarded', () => {
  it('a plain repository: only its .git folder (and nothing outside the project) is a guarded place', async () => {
    put('.gitconfig', '[include]\n\tpath = ~/more.cfg\n', home);
    const places = await guardedPlaces(root);
    expect(places.map((p) => [p.rel, p.kind])).toEqual([
      ['.git', 'git'],
      ['.git/hooks', 'hooks'],
      ['.git/config', 'config'],
      ['.git/config.worktree', 'config'],
    ]);
    for (const rel of ['src/app.ts', '.gitconfig', 'hooks/pre-commit', 'tools/hooks/pre-commit'])
      expect(await gitControlled(root, rel), rel).toBe(false);
  });

  it('an include file outside the project is not reported as a project path', async () => {
    put('.git/config', '[include]\n\tpath = ../../outside.cfg\n[include]\n\tpath = /etc/elsewhere.cfg\n');
    put('outside.cfg', '[core]\n\thooksPath = ../hooks-outside\n', base);
    const rels = (await guardedPlaces(root)).map((p) => p.rel);
    expect(rels.filter((r) => r.startsWith('..') || path.isAbsolute(r) || r.includes('outside'))).toEqual([]);
    expect(await gitControlled(root, 'outside.cfg')).toBe(false);
  });

  it('a .husky symlink without core.hooksPath, and a symlink in the project into nothing git reads, stay ordinary', async () => {
    mkdirSync(path.join(root, 'tools/hooks'), { recursive: true });
    link('tools/hooks', '.husky');
    link('src', 'alias');
    expect(await gitControlled(root, 'tools/hooks/pre-commit')).toBe(false);
    expect(await gitControlled(root, 'src/app.ts')).toBe(false);
  });

  it('includes are followed 10 levels deep, as git does, and no deeper', async () => {
    put('.git/config', '[include]\n\tpath = ../i1.cfg\n');
    for (let i = 1; i <= 11; i++) put(`i${i}.cfg`, `[include]\n\tpath = i${i + 1}.cfg\n`);
    expect([await gitControlled(root, 'i10.cfg'), await gitControlled(root, 'i11.cfg')]).toEqual([true, false]);
  });

  it('a FIFO named as an include is not read (the check does not block)', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe.cfg')]);
    put('.git/config', '[include]\n\tpath = ../pipe.cfg\n');
    expect(await gitControlled(root, 'pipe.cfg')).toBe(true);
  });
});

describe('parseGitConfig reads git config text as git does', () => {
  it('sections, subsections, legacy sections, header-line keys, quoting, escapes, continuations, comments', () => {
    const text = [
      '\uFEFF[core]\n',
      '# comment\n; comment\n',
      '[Core] HooksPath = "a b" ; tail\n',
      '[includeIf "gitdir:~/Work/"]\n\tpath = x.cfg # tail\n',
      '[include.Sub]\n\tpath = \\\n  continued\\tvalue\n',
      '[alias]\n\tflag\n\tst = "!echo \\"hi\\""\n',
      'broken line here\n[core]\n\tpager = "unterminated\n\teditor = vi\n',
    ].join('');
    expect(parseGitConfig(text)).toEqual([
      { key: 'core.hookspath', value: 'a b' },
      { key: 'includeif.gitdir:~/Work/.path', value: 'x.cfg' },
      { key: 'include.sub.path', value: 'continued\tvalue' },
      { key: 'alias.flag', value: null },
      { key: 'alias.st', value: '!echo "hi"' },
      { key: 'core.editor', value: 'vi' },
    ]);
  });
});
