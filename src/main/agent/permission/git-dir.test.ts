/**
 * The user's `.git` (and a nested repository's, and a submodule's `.git` file) is outside what tools may write
 * without a dedicated question (tools/git-dir.ts): edit/write/apply_patch and bash lines that name a `.git`
 * path or set `git config` are asked as `git_dir` whatever the allow rules, never get "always", are refused in
 * unattended runs; an undo after such a write says it could not restore it; replay seeding refuses `.git`.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { planSeed } from '../replay/seed';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ALLOW_ALL = [
  { permission: 'edit' as const, pattern: '**', action: 'allow' as const },
  { permission: 'bash' as const, pattern: '*', action: 'allow' as const },
];

async function project(): Promise<Harness> {
  const x = await harness();
  mkdirSync(path.join(x.root, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(x.root, '.git/config'), '[core]\n\tbare = false\n');
  mkdirSync(path.join(x.root, 'vendor/lib'), { recursive: true });
  writeFileSync(path.join(x.root, 'vendor/lib/.git'), 'gitdir: ../../.git/modules/lib\n');
  symlinkSync('.git/hooks', path.join(x.root, 'hooks'));
  await x.svc.saveSettings({ ...x.svc.getSettings(), permissions: ALLOW_ALL });
  return x;
}

const HOSTILE = [
  { toolName: 'write', input: { filePath: '.git/hooks/post-checkout', content: '#!/bin/sh\ntouch pwned\n' } },
  { toolName: 'write', input: { filePath: 'hooks/pre-commit', content: '#!/bin/sh\ntouch pwned\n' } },
  { toolName: 'write', input: { filePath: 'vendor/lib/.git', content: 'gitdir: /tmp/evil\n' } },
  { toolName: 'write', input: { filePath: '.GIT/config', content: 'x\n' } },
  {
    toolName: 'apply_patch',
    input: { patchText: '*** Begin Patch\n*** Add File: .git/hooks/pre-push\n+touch pwned\n*** End Patch' },
  },
  { toolName: 'bash', input: { command: 'echo "touch pwned" > .git/hooks/pre-commit' } },
  { toolName: 'bash', input: { command: 'cp /dev/null .git/hooks/post-merge' } },
  { toolName: 'bash', input: { command: 'git config core.hooksPath /tmp/evil' } },
  { toolName: 'bash', input: { command: 'git config --add alias.st "!touch pwned"' } },
  { toolName: 'bash', input: { command: 'tee vendor/lib/.git/hooks/x < /dev/null' } },
  { toolName: 'bash', input: { command: 'ln -sf /tmp/evil hooks/pre-rebase' } },
  { toolName: 'bash', input: { command: 'git --git-dir=.git config core.pager evil' } },
];

describe('writes into .git are asked as git_dir whatever the rules', () => {
  it('every attempt is asked as git_dir, with no "always", and rejecting writes nothing (attempts / held)', async () => {
    h = await project();
    const x = h;
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      // "always" is refused for git_dir; the question stays open and is then rejected
      const always = x.svc.answerPermission(e.requestId, { answer: 'always' });
      expect(always.ok).toBe(false);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    // the submodule's .git file exists: the session reads it first (read-before-write), then tries to overwrite it
    const calls = HOSTILE.flatMap((c, i) => [
      ...(c.input.filePath === 'vendor/lib/.git' ? [{ callId: `r${i}`, toolName: 'read', input: c.input }] : []),
      { callId: `g${i}`, ...c },
    ]);
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    const held = asked.filter((e) => e.permission === 'git_dir' && e.always === null).length;
    console.log(`.git write attempts under allow-all rules: ${HOSTILE.length} attempts / ${held} held`);
    expect(asked.map((e) => e.permission)).toEqual(HOSTILE.map(() => 'git_dir'));
    expect(held).toBe(HOSTILE.length);
    expect(asked[0]?.title).toMatch(/repository's own git folder .*undo cannot restore it/);
    expect(existsSync(path.join(x.root, '.git/hooks/post-checkout'))).toBe(false);
    expect(existsSync(path.join(x.root, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(path.join(x.root, '.git/config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(readFileSync(path.join(x.root, 'vendor/lib/.git'), 'utf8')).toBe('gitdir: ../../.git/modules/lib\n');
  });

  it('unattended runs refuse it; an allowed write is not restored by undo, and undo says so', async () => {
    h = await project();
    const x = h;
    const unattended = x.newSession();
    x.svc.setUnattended(unattended, true);
    await x.svc.runWithModel(unattended, scripted([[{ callId: 'u', ...HOSTILE[0] }] as never]), 'go');
    expect(existsSync(path.join(x.root, '.git/hooks/post-checkout'))).toBe(false);

    x.svc.on((e) => {
      if (e.type === 'permission.asked') queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'once' }));
    });
    const s = x.newSession();
    await x.svc.runWithModel(
      s,
      scripted([
        [
          { callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } },
          { callId: 'g', ...(HOSTILE[0] as (typeof HOSTILE)[number]) },
        ],
      ]),
      'go',
    );
    expect(existsSync(path.join(x.root, '.git/hooks/post-checkout'))).toBe(true);
    const undo = await x.svc.undo(s);
    expect(undo.ok && undo.value.restored.concat(undo.value.deleted)).toEqual(['a.txt']);
    expect(undo.ok && undo.value.unrestorable).toEqual(['.git/hooks/post-checkout']);
  });

  it('replay seeding refuses a .git path', async () => {
    h = await harness();
    const r = await planSeed(h.root, [{ path: '.git/config', content: 'x' } as never]);
    expect(r.ok ? 'ok' : r.error.code).toBe('invalid_input');
    expect(r.ok ? '' : r.error.message).toMatch(/\.git folder, which replay never writes/);
  });
});

describe('commands that only read may name .git', () => {
  it('find, grep, ls and git name .git without a git_dir question; a write redirect into .git still asks', async () => {
    const { analyseBash } = await import('./bash-command');
    const { bashFacts } = await import('./bash-facts');
    const guard = { withheld: () => undefined };
    const facts = async (line: string) => (await bashFacts(await analyseBash(line), undefined, guard)).gitDir;
    expect(await facts("find . -not -path './.git/*' -name '*.ts'")).toEqual([]);
    expect(await facts('grep -r TODO --exclude-dir=.git .')).toEqual([]);
    expect(await facts('ls .git && git status')).toEqual([]);
    expect(await facts('find .git -delete')).not.toEqual([]);
    expect(await facts('cat x > .git/config')).not.toEqual([]);
    expect(await facts('cat x | tee .git/config')).not.toEqual([]);
  });
});
