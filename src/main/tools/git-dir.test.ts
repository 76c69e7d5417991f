/**
 * `core.hooksPath` from every place git reads it (tools/git-dir.ts `hooksFolders`, `gitControlled`), with real git
 * and real repositories in temp folders: the repository's config and its worktree config, the global config
 * (~/.gitconfig, $XDG_CONFIG_HOME/git/config, GIT_CONFIG_GLOBAL), the system config (GIT_CONFIG_SYSTEM),
 * `[include]` (absolute and relative), `[includeIf "gitdir:…"]`, `[includeIf "onbranch:…"]`, GIT_CONFIG_COUNT,
 * GIT_CONFIG_PARAMETERS, and a
 * nested repository's own setting. Each place is one attempt: held when a write into the folder it names is a
 * `git_dir` write and an ordinary file is not. Without git on PATH the files git would read first-hand still count.
 * HOME, XDG_CONFIG_HOME and the system config point at temp files, so the machine's own git settings play no part.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gitControlled, hooksFolders } from './git-dir';
import { gitSandbox } from './git-test-env';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  ({ base, root, home } = gitSandbox('hookspath'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(base, { recursive: true, force: true });
});

const tally = { attempts: 0, held: 0 };
afterAll(() => console.log(`core.hooksPath places: ${tally.attempts} attempts / ${tally.held} held`));

const append = (file: string, text: string): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { flag: 'a' });
};

/** Each place: how to set `core.hooksPath` to a folder named `hooks` (relative to the repository), and the folder. */
const PLACES: { name: string; set: (hooks: string) => void; folder?: string }[] = [
  { name: 'the repository config', set: (h) => append(path.join(root, '.git/config'), `[core]\n\thooksPath = ${h}\n`) },
  {
    name: 'the worktree config (extensions.worktreeConfig)',
    set: (h) => {
      execFileSync('git', ['-C', root, 'config', 'extensions.worktreeConfig', 'true']);
      append(path.join(root, '.git/config.worktree'), `[core]\n\thooksPath = ${h}\n`);
    },
  },
  { name: '~/.gitconfig', set: (h) => append(path.join(home, '.gitconfig'), `[core]\n\thooksPath = ${h}\n`) },
  {
    name: '$XDG_CONFIG_HOME/git/config',
    set: (h) => append(path.join(home, '.config/git/config'), `[core]\n\thooksPath = ${h}\n`),
  },
  {
    name: 'GIT_CONFIG_GLOBAL',
    set: (h) => {
      append(path.join(base, 'elsewhere.gitconfig'), `[core]\n\thooksPath = ${h}\n`);
      vi.stubEnv('GIT_CONFIG_GLOBAL', path.join(base, 'elsewhere.gitconfig'));
    },
  },
  {
    name: 'the system config (GIT_CONFIG_SYSTEM)',
    set: (h) => append(path.join(base, 'system-gitconfig'), `[core]\n\thooksPath = ${h}\n`),
  },
  {
    name: '[include] path (absolute) in the repository config',
    set: (h) => {
      append(path.join(base, 'inc.gitconfig'), `[core]\n\thooksPath = ${h}\n`);
      append(path.join(root, '.git/config'), `[include]\n\tpath = ${path.join(base, 'inc.gitconfig')}\n`);
    },
  },
  {
    name: '[include] path (relative to the including file) in ~/.gitconfig',
    set: (h) => {
      append(path.join(home, 'git/more.gitconfig'), `[core]\n\thooksPath = ${h}\n`);
      append(path.join(home, '.gitconfig'), '[include]\n\tpath = git/more.gitconfig\n');
    },
  },
  {
    name: '[includeIf "gitdir:…"] in ~/.gitconfig',
    set: (h) => {
      append(path.join(base, 'work.gitconfig'), `[core]\n\thooksPath = ${h}\n`);
      append(
        path.join(home, '.gitconfig'),
        `[includeIf "gitdir:${base}/"]\n\tpath = ${path.join(base, 'work.gitconfig')}\n`,
      );
    },
  },
  {
    name: '[includeIf "onbranch:main"] in the repository config',
    set: (h) => {
      append(path.join(base, 'branch.gitconfig'), `[core]\n\thooksPath = ${h}\n`);
      append(
        path.join(root, '.git/config'),
        `[includeIf "onbranch:main"]\n\tpath = ${path.join(base, 'branch.gitconfig')}\n`,
      );
    },
  },
  {
    name: 'GIT_CONFIG_COUNT / KEY / VALUE',
    set: (h) => {
      vi.stubEnv('GIT_CONFIG_COUNT', '1');
      vi.stubEnv('GIT_CONFIG_KEY_0', 'core.hooksPath');
      vi.stubEnv('GIT_CONFIG_VALUE_0', h);
    },
  },
  {
    name: 'GIT_CONFIG_PARAMETERS (as `git -c` passes it to hooks and subcommands)',
    set: (h) => vi.stubEnv('GIT_CONFIG_PARAMETERS', `'user.name'='A '\\''B' 'core.hooksPath'='${h}'`),
  },
  {
    name: "a nested repository's own config",
    set: (h) => {
      execFileSync('git', ['init', '-q', path.join(root, 'sub')]);
      append(path.join(root, 'sub/.git/config'), `[core]\n\thooksPath = ${h}\n`);
    },
    folder: 'sub/tools/hooks',
  },
];

describe('core.hooksPath is read from every place git reads it (attempts / held)', () => {
  for (const place of PLACES) {
    it(`set in ${place.name}`, async () => {
      place.set('tools/hooks');
      const folder = place.folder ?? 'tools/hooks';
      tally.attempts++;
      const guarded = await gitControlled(root, `${folder}/pre-commit`);
      const ordinary = await gitControlled(root, 'src/app.ts');
      if (guarded && !ordinary) tally.held++;
      expect([guarded, ordinary]).toEqual([true, false]);
    });
  }

  it('set nowhere: the folder is an ordinary one', async () => {
    expect([await hooksFolders(root), await gitControlled(root, 'tools/hooks/pre-commit')]).toEqual([[], false]);
  });

  it('a value outside the project (~/.githooks) guards nothing inside it', async () => {
    append(path.join(home, '.gitconfig'), '[core]\n\thooksPath = ~/.githooks\n');
    expect(await hooksFolders(root)).toEqual([]);
  });

  it('without git on PATH: the repository, global and system files and their includes still count', async () => {
    vi.stubEnv('PATH', path.join(base, 'no-git-here'));
    append(path.join(root, '.git/config'), '[core]\n\thooksPath = .husky\n');
    append(path.join(home, '.gitconfig'), '[core]\n\thooksPath = tools/hooks\n[include]\n\tpath = more.gitconfig\n');
    append(path.join(home, 'more.gitconfig'), '[core]\n\thooksPath = inc-hooks\n');
    append(path.join(base, 'system-gitconfig'), '[core]\n\thooksPath = "sys hooks"\n');
    expect((await hooksFolders(root)).sort()).toEqual(['.husky', 'inc-hooks', 'sys hooks', 'tools/hooks']);
  });
});
