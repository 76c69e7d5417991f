/**
 * git's answer about its configuration files is kept only while nothing it depends on changed (git-config-ask.ts),
 * with real git on a real repository in a temp folder: reused when every file is as it was, asked again when a
 * file git reported changed (also with its size and mtime kept), when a file of the caller's chain appears or
 * changes, when a symlinked config's target changes, and never kept while a file changed moments ago (racy).
 */
import { readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { askGitConfig, forgetGitConfigAnswers, gitConfigAsks, RACY_MS } from './git-config-ask';
import { gitSandbox } from './git-test-env';

let base: string;
let root: string;
let home: string;
/** A clock far enough after every file's change that nothing is racy. */
const later = (): number => Date.now() + 10 * RACY_MS;

beforeEach(() => {
  ({ base, root, home } = gitSandbox('config-ask'));
  forgetGitConfigAnswers();
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(base, { recursive: true, force: true });
});

/** Rewrites `file` with `text` of the same length and puts its mtime back: only its ctime tells. */
function rewriteKeepingStat(file: string, text: string): void {
  const st = statSync(file);
  expect(text.length).toBe(readFileSync(file, 'utf8').length);
  writeFileSync(file, text);
  utimesSync(file, st.atime, st.mtime);
}

it('reuses the answer while every file is as it was; a file git reported, changed in place, is asked again', async () => {
  const config = path.join(root, '.git', 'config');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[core]\n\thooksPath = hooks-a\n`);
  const asks = gitConfigAsks();
  const first = await askGitConfig(root, home, [], later());
  expect(first?.hooksPaths).toEqual(['hooks-a']);
  expect(first?.files).toContain(config);
  expect(await askGitConfig(root, home, [], later())).toEqual(first);
  expect(gitConfigAsks() - asks).toBe(1);

  rewriteKeepingStat(config, readFileSync(config, 'utf8').replace('hooks-a', 'hooks-b'));
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual(['hooks-b']);
  expect(gitConfigAsks() - asks).toBe(2);
});

it('a chain file that appears, or a symlinked config whose target changes, makes git be asked again', async () => {
  const include = path.join(base, 'extra.gitconfig');
  const asks = gitConfigAsks();
  await askGitConfig(root, home, [include], later());
  await askGitConfig(root, home, [include], later());
  expect(gitConfigAsks() - asks).toBe(1);
  writeFileSync(include, '[core]\n\thooksPath = x\n');
  await askGitConfig(root, home, [include], later());
  expect(gitConfigAsks() - asks).toBe(2);

  // the global config as a symlink: its target is swapped for another file of the same size
  const a = path.join(base, 'a.gitconfig');
  const b = path.join(base, 'b.gitconfig');
  writeFileSync(a, '[core]\n\thooksPath = one\n');
  writeFileSync(b, '[core]\n\thooksPath = two\n');
  // (the caller's chain lists the global config's place, as git-dir.ts does, also while it is missing)
  const globalPlace = [path.join(home, '.gitconfig')];
  symlinkSync(a, globalPlace[0] as string);
  expect((await askGitConfig(root, home, globalPlace, later()))?.hooksPaths).toEqual(['one']);
  expect(gitConfigAsks() - asks).toBe(3);
  rmSync(a);
  writeFileSync(a, readFileSync(b));
  expect((await askGitConfig(root, home, globalPlace, later()))?.hooksPaths).toEqual(['two']);
  expect(gitConfigAsks() - asks).toBe(4);
});

it('an answer whose files changed moments ago (racy) is not kept: every call asks', async () => {
  const config = path.join(root, '.git', 'config');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[core]\n\thooksPath = now\n`);
  const asks = gitConfigAsks();
  for (let i = 0; i < 3; i++) expect((await askGitConfig(root, home, []))?.hooksPaths).toEqual(['now']);
  expect(gitConfigAsks() - asks).toBe(3);
});

it('the environment is part of the key: another global config is asked about, not taken from the kept answer', async () => {
  const global = path.join(base, 'global.gitconfig');
  writeFileSync(global, '[core]\n\thooksPath = from-global\n');
  const asks = gitConfigAsks();
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual([]);
  vi.stubEnv('GIT_CONFIG_GLOBAL', global);
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual(['from-global']);
  expect(gitConfigAsks() - asks).toBe(2);
});

it("an include git lists but the caller's reading misses (a header git accepts and the parser does not) is watched", async () => {
  // `[includeIf\r"…"]`: git takes the carriage return as the space before the subsection; its target appears later
  const config = path.join(root, '.git', 'config');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[includeIf\r"gitdir:**"]\n\tpath = ../shared.cfg\n`);
  const asks = gitConfigAsks();
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual([]);
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual([]);
  expect(gitConfigAsks() - asks).toBe(1);
  writeFileSync(path.join(root, 'shared.cfg'), '[core]\n\thooksPath = .evil\n');
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual(['.evil']);
  expect(gitConfigAsks() - asks).toBe(2);
});

it('a relative GIT_CONFIG_GLOBAL is watched where git opens it: from the folder git runs in', async () => {
  vi.stubEnv('GIT_CONFIG_GLOBAL', 'g.cfg');
  const asks = gitConfigAsks();
  await askGitConfig(root, home, [], later());
  await askGitConfig(root, home, [], later());
  expect(gitConfigAsks() - asks).toBe(1);
  writeFileSync(path.join(root, 'g.cfg'), '[core]\n\thooksPath = from-relative-global\n');
  expect((await askGitConfig(root, home, [], later()))?.hooksPaths).toEqual(['from-relative-global']);
  expect(gitConfigAsks() - asks).toBe(2);
});

it('an include that cannot be resolved here (another user’s home) keeps no answer', async () => {
  const config = path.join(root, '.git', 'config');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[include]\n\tpath = ~no-such-user-7f3a/x.cfg\n`);
  const asks = gitConfigAsks();
  await askGitConfig(root, home, [], later());
  await askGitConfig(root, home, [], later());
  expect(gitConfigAsks() - asks).toBe(2);
});
