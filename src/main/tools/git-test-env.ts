/**
 * Test support for the git-guard tests: a temp folder holding a project with its own repository (`git init`) and
 * a home folder, with git's configuration pointed at temp files — HOME and XDG_CONFIG_HOME at the home folder,
 * the system config at `<base>/system-gitconfig`, and GIT_CONFIG_GLOBAL, _NOSYSTEM, _COUNT and _PARAMETERS unset —
 * so the machine's own git settings play no part. Used only by *.test.ts files; `vi.unstubAllEnvs()` undoes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

/** The folders of one sandbox: `base` (real path) holds `root` (the repository) and `home`. */
export interface GitSandbox {
  base: string;
  root: string;
  home: string;
}

/** Makes a sandbox under os.tmpdir() named `landfall-<prefix>-…` and stubs the environment (module docstring). */
export function gitSandbox(prefix: string): GitSandbox {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), `landfall-${prefix}-`)));
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, '.config'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
  vi.stubEnv('GIT_CONFIG_SYSTEM', path.join(base, 'system-gitconfig'));
  vi.stubEnv('GIT_CONFIG_GLOBAL', undefined);
  vi.stubEnv('GIT_CONFIG_NOSYSTEM', undefined);
  vi.stubEnv('GIT_CONFIG_COUNT', undefined);
  vi.stubEnv('GIT_CONFIG_PARAMETERS', undefined);
  return { base, root, home };
}
