/**
 * Through the gate: writes that reach a hooks folder by a symlink, a git folder inside the work tree, a symlink
 * target of the git or hooks folder, or a work-tree file git's config chain includes (tools/git-dir.ts
 * `guardedPlaces`) are asked as `git_dir` under allow-all rules — write, apply_patch and bash (bash-facts.ts, by
 * the word as written and by its real path) — never "always"; rejecting writes nothing. An ordinary file is not
 * asked. The project is a real `git init` repository; HOME points at a temp folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

let h: Harness | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.unstubAllEnvs();
  for (const c of cleanups.splice(0)) c();
});

/**
 * A repository with: core.hooksPath = .husky, `.husky -> tools/hooks` (F2); `.git/hooks -> ../scripts/hooks` (F3);
 * `[include] path = ../.gitconfig` (F5); `[includeIf "onbranch:later"]` of later.cfg that sets core.hooksPath =
 * later-hooks (F6); `.git/info -> ../gitinfo`; a dangling `scripts/hooks/pre-push -> ../pp.sh` (scripts/pp.sh).
 */
async function project(): Promise<Harness> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-home-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
  vi.stubEnv('GIT_CONFIG_SYSTEM', path.join(home, 'system-gitconfig'));
  vi.stubEnv('GIT_CONFIG_GLOBAL', undefined);
  const x = await harness();
  const r = (rel: string): string => path.join(x.root, rel);
  execFileSync('git', ['init', '-q', '-b', 'main', x.root]);
  writeFileSync(
    r('.git/config'),
    `${readFileSync(r('.git/config'), 'utf8')}[core]\n\thooksPath = .husky\n[include]\n\tpath = ../.gitconfig\n` +
      '[includeIf "onbranch:later"]\n\tpath = ../later.cfg\n',
  );
  writeFileSync(r('later.cfg'), '[core]\n\thooksPath = later-hooks\n');
  mkdirSync(r('tools/hooks'), { recursive: true });
  symlinkSync('tools/hooks', r('.husky'));
  rmSync(r('.git/hooks'), { recursive: true, force: true });
  mkdirSync(r('scripts/hooks'), { recursive: true });
  symlinkSync('../scripts/hooks', r('.git/hooks'));
  symlinkSync('../pp.sh', r('scripts/hooks/pre-push'));
  rmSync(r('.git/info'), { recursive: true, force: true });
  mkdirSync(r('gitinfo'));
  symlinkSync('../gitinfo', r('.git/info'));
  // a nested repository (a vendored checkout) with a hooks folder of its own
  mkdirSync(r('vendor/lib'), { recursive: true });
  execFileSync('git', ['init', '-q', r('vendor/lib')]);
  execFileSync('git', ['-C', r('vendor/lib'), 'config', 'core.hooksPath', '.hooks']);
  await x.svc.saveSettings({
    ...x.svc.getSettings(),
    permissions: [
      { permission: 'edit', pattern: '**', action: 'allow' },
      { permission: 'bash', pattern: '*', action: 'allow' },
    ],
  });
  return x;
}

const PWN = '#!/bin/sh\ntouch pwn\n';
const HOSTILE = [
  { toolName: 'write', input: { filePath: 'tools/hooks/pre-commit', content: PWN } },
  { toolName: 'bash', input: { command: 'cat > tools/hooks/pre-commit < /dev/null' } },
  { toolName: 'bash', input: { command: 'echo "touch pwn" > .husky/pre-commit' } },
  { toolName: 'write', input: { filePath: 'scripts/hooks/post-checkout', content: PWN } },
  { toolName: 'bash', input: { command: 'cp /dev/null scripts/hooks/post-merge' } },
  { toolName: 'write', input: { filePath: 'scripts/pp.sh', content: PWN } },
  { toolName: 'write', input: { filePath: 'gitinfo/attributes', content: '* filter=evil\n' } },
  { toolName: 'write', input: { filePath: '.gitconfig', content: '[core]\n\tfsmonitor = touch pwn\n' } },
  { toolName: 'bash', input: { command: "printf '[core]\\n\\tfsmonitor = touch pwn\\n' > .gitconfig" } },
  { toolName: 'write', input: { filePath: 'later-hooks/pre-commit', content: PWN } },
  {
    toolName: 'apply_patch',
    input: { patchText: '*** Begin Patch\n*** Add File: later-hooks/pre-push\n+touch pwn\n*** End Patch' },
  },
  { toolName: 'bash', input: { command: 'tee later-hooks/post-commit < /dev/null' } },
  { toolName: 'write', input: { filePath: 'vendor/lib/.hooks/pre-push', content: PWN } },
  { toolName: 'bash', input: { command: 'cp /dev/null vendor/lib/.hooks/pre-commit' } },
];

describe('symlinked hooks folders and included config files are asked as git_dir whatever the rules', () => {
  it('every attempt is asked as git_dir, never "always"; rejecting writes nothing (attempts / held)', async () => {
    h = await project();
    const x = h;
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      expect(x.svc.answerPermission(e.requestId, { answer: 'always' }).ok).toBe(false);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    await x.svc.runWithModel(s, scripted([HOSTILE.map((c, i) => ({ callId: `g${i}`, ...c }))]), 'go');
    const held = asked.filter((e) => e.permission === 'git_dir' && e.always === null).length;
    console.log(`git-guard symlink/include attempts through the gate: ${HOSTILE.length} held: ${held}`);
    expect(asked.map((e) => [e.tool, e.permission])).toEqual(HOSTILE.map((c) => [c.toolName, 'git_dir']));
    expect(held).toBe(HOSTILE.length);
    const reasons = asked.flatMap((e) => e.reasons ?? []).join('\n');
    expect(reasons).toMatch(/tools\/hooks\/pre-commit is in (\.husky|tools\/hooks), the repository's hooks folder/);
    expect(reasons).toMatch(/\.gitconfig is \.gitconfig, a file git reads its configuration from/);
    for (const rel of [
      'tools/hooks/pre-commit',
      'scripts/hooks/post-checkout',
      'scripts/hooks/post-merge',
      'scripts/pp.sh',
      'gitinfo/attributes',
      '.gitconfig',
      'later-hooks',
      'vendor/lib/.hooks',
      'pwn',
    ])
      expect(existsSync(path.join(x.root, rel)), rel).toBe(false);
  });

  it('an ordinary file beside them is written without a question', async () => {
    h = await project();
    const x = h;
    const asked: string[] = [];
    x.svc.on((e) => void (e.type === 'permission.asked' && asked.push(e.permission)));
    const s = x.newSession();
    const calls = [
      { callId: 'w', toolName: 'write', input: { filePath: 'src/app.ts', content: 'x\n' } },
      { callId: 'b', toolName: 'bash', input: { command: 'echo x > tools/notes.txt' } },
    ];
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    expect(asked).toEqual([]);
    expect(readFileSync(path.join(x.root, 'src/app.ts'), 'utf8')).toBe('x\n');
    expect(readFileSync(path.join(x.root, 'tools/notes.txt'), 'utf8')).toBe('x\n');
  });
});
