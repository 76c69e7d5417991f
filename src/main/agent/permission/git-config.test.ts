/**
 * git lines that make git run other programs or write its configuration or hooks, and the hooks folder that
 * `core.hooksPath` names outside `.git` (husky's `.husky`): asked as `git_dir` whatever the allow rules (an allow
 * rule or an "always" pattern `git` included), never "always"; rejecting runs and writes nothing (bash-git.ts
 * `gitConfigReason`, tools/git-dir.ts `gitControlled`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { hooksPathsOf } from '../../tools/git-dir';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { gitConfigReason } from './bash-git';
import { neverWidenReason } from './bash-risk';

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.unstubAllEnvs();
  for (const c of cleanups.splice(0)) c();
});

const HOOK = '#!/bin/sh\nnpm test\n';
const CONFIG = '[core]\n\tbare = false\n\thooksPath = .husky\n';

async function project(): Promise<Harness> {
  const x = await harness();
  mkdirSync(path.join(x.root, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(x.root, '.git/config'), CONFIG);
  mkdirSync(path.join(x.root, '.husky'));
  writeFileSync(path.join(x.root, '.husky/pre-commit'), HOOK);
  await x.svc.saveSettings({
    ...x.svc.getSettings(),
    permissions: [
      { permission: 'edit', pattern: '**', action: 'allow' },
      { permission: 'bash', pattern: 'git', action: 'allow' },
      { permission: 'bash', pattern: 'echo', action: 'allow' },
    ],
  });
  return x;
}

const GIT_LINES = [
  'git -c alias.st="!touch pwn" st',
  'git -c core.pager="touch pwn" log',
  'git -c core.fsmonitor="touch pwn" status',
  'git -c core.sshCommand="touch pwn" fetch origin',
  'git --config-env=core.pager=EDITOR log',
  'git --exec-path=/tmp/evil status',
  'git config --global alias.st "!touch pwn"',
  'git config core.hooksPath /tmp/evil',
  'git remote add evil /tmp/x',
  'git remote set-url origin /tmp/x',
  'git submodule add /tmp/x sub',
  'git branch --set-upstream-to=origin/main',
  'git init sub',
  'git clone -c core.hooksPath=/tmp/x /tmp/a b',
  'git worktree add ../wt',
  'echo "touch pwn" > .husky/pre-commit',
];

const HOOK_WRITES = [
  { toolName: 'write', input: { filePath: '.husky/pre-commit', content: '#!/bin/sh\ntouch pwn\n' } },
  { toolName: 'edit', input: { filePath: '.husky/pre-commit', oldString: 'npm test', newString: 'touch pwn' } },
  {
    toolName: 'multiedit',
    input: { filePath: '.husky/pre-commit', edits: [{ oldString: 'npm test', newString: 'touch pwn' }] },
  },
  {
    toolName: 'apply_patch',
    input: { patchText: '*** Begin Patch\n*** Add File: .husky/pre-push\n+touch pwn\n*** End Patch' },
  },
];

describe('git configuration, programs and hooks folders are asked as git_dir whatever the rules', () => {
  it('every line and every hooks-folder write is asked as git_dir, never "always"; rejecting changes nothing (attempts / held)', async () => {
    h = await project();
    const x = h;
    const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    vi.stubEnv('HOME', home); // were a line run after all, `--global` would write here, not the user's ~/.gitconfig
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      expect(x.svc.answerPermission(e.requestId, { answer: 'always' }).ok).toBe(false);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    const calls = [
      { callId: 'r', toolName: 'read', input: { filePath: '.husky/pre-commit' } },
      ...GIT_LINES.map((command, i) => ({ callId: `b${i}`, toolName: 'bash', input: { command } })),
      ...HOOK_WRITES.map((c, i) => ({ callId: `w${i}`, ...c })),
    ];
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    const attempts = GIT_LINES.length + HOOK_WRITES.length;
    const git = asked.filter((e) => e.permission === 'git_dir' && e.always === null);
    const held = git.length;
    console.log(`[hostile] git config / programs / hooks folder under allow git: ${attempts} attempts / ${held} held`);
    expect(asked.map((e) => [e.tool, e.permission])).toEqual(
      [...GIT_LINES.map(() => 'bash'), ...HOOK_WRITES.map((c) => c.toolName)].map((t) => [t, 'git_dir']),
    );
    expect(held).toBe(attempts);
    expect((git[0]?.reasons ?? []).join(' ')).toMatch(/-c sets git configuration for this command/);
    expect(existsSync(path.join(x.root, 'pwn'))).toBe(false);
    expect(existsSync(path.join(home, '.gitconfig'))).toBe(false);
    expect(readFileSync(path.join(x.root, '.git/config'), 'utf8')).toBe(CONFIG);
    expect(readFileSync(path.join(x.root, '.husky/pre-commit'), 'utf8')).toBe(HOOK);
    expect(existsSync(path.join(x.root, '.husky/pre-push'))).toBe(false);
  });

  it('a hooks folder named only in the global config (~/.gitconfig) is asked as git_dir too: write, edit, bash', async () => {
    h = await project();
    const x = h;
    writeFileSync(path.join(x.root, '.git/config'), '[core]\n\tbare = false\n');
    mkdirSync(path.join(x.root, '.githooks'));
    writeFileSync(path.join(x.root, '.githooks/pre-commit'), HOOK);
    const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
    const asked: [string, string][] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push([e.tool, e.permission]);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    const calls = [
      { callId: 'r', toolName: 'read', input: { filePath: '.githooks/pre-commit' } },
      { callId: 'w', toolName: 'write', input: { filePath: '.githooks/pre-commit', content: 'touch pwn\n' } },
      {
        callId: 'e',
        toolName: 'edit',
        input: { filePath: '.githooks/pre-commit', oldString: 'npm test', newString: 'touch pwn' },
      },
      { callId: 'b', toolName: 'bash', input: { command: 'echo "touch pwn" > .githooks/pre-commit' } },
    ];
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    const held = asked.filter(([, p]) => p === 'git_dir').length;
    console.log(`[hostile] hooks folder set in ~/.gitconfig only: 3 attempts / ${held} held`);
    expect(asked).toEqual([
      ['write', 'git_dir'],
      ['edit', 'git_dir'],
      ['bash', 'git_dir'],
    ]);
    expect(readFileSync(path.join(x.root, '.githooks/pre-commit'), 'utf8')).toBe(HOOK);
  });

  it('without core.hooksPath, .husky is an ordinary folder (no question under allow rules)', async () => {
    h = await project();
    writeFileSync(path.join(h.root, '.git/config'), '[core]\n\tbare = false\n');
    const asked: string[] = [];
    h.svc.on((e) => void (e.type === 'permission.asked' && asked.push(e.permission)));
    const s = h.newSession();
    await h.svc.runWithModel(s, scripted([[{ callId: 'w', ...HOOK_WRITES[3] }] as never]), 'go');
    expect(asked).toEqual([]);
    expect(readFileSync(path.join(h.root, '.husky/pre-push'), 'utf8')).toBe('touch pwn\n');
  });
});

describe('gitConfigReason and hooksPathsOf', () => {
  it('reading git lines stay plain; -c lines are never widened', () => {
    const plain = [
      'git status',
      'git log --oneline',
      'git -C ../other log',
      'git config --get user.name',
      'git config --global --list',
      'git remote -v',
      'git submodule status',
      'git branch -a',
      'git worktree list',
      'git commit -m "fix: config parsing"',
      'git checkout -b topic',
    ];
    for (const line of plain) expect(gitConfigReason(line.split(' ')), line).toBeUndefined();
    expect(neverWidenReason(['git', '-c', 'core.pager=less', 'log'])).toMatch(/-c sets git configuration/);
    expect(neverWidenReason(['git', 'log', '--oneline'])).toBeUndefined();
  });

  it('reads core.hooksPath from the [core] section only, quoted or not, with comments', () => {
    expect(hooksPathsOf('[core]\n\tbare = false\n\thooksPath = .husky\n')).toEqual(['.husky']);
    expect(hooksPathsOf('[CORE]\n  HooksPath = "tools/git hooks" ; husky\n')).toEqual(['tools/git hooks']);
    expect(hooksPathsOf('[alias]\n\thooksPath = x\n[core]\n\teditor = vi\n')).toEqual([]);
  });
});
