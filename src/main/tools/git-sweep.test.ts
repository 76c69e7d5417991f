/**
 * Under an allow-all rule a bash line that computes a path into git's configuration or hooks (the gate judges the
 * words a line names, so `${d}ks/pre-commit` or a Python string concatenation passes it) still leaves them as
 * they were: the sweep around the command (git-sweep.ts) puts back every change byte for byte and mode for mode,
 * and the output says so — in a real repository, through the agent loop, and the next real `git commit` runs no
 * planted hook. A write the user allowed through a `git_dir` question is kept. Prints attempts / held.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { harness, scripted, tempDir } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';
import { holdGitPermission, restoreGuardState, takeGuardState, watchGitPlaces } from './git-sweep';

const ALLOW_ALL = [
  { permission: 'edit' as const, pattern: '**', action: 'allow' as const },
  { permission: 'bash' as const, pattern: '*', action: 'allow' as const },
];
type ToolPart = Extract<Part, { type: 'tool' }>;
const HOOK = '#!/bin/sh\nexit 0\n';
const CONFIG_HEAD = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n';

let home: string;
const oldHome = process.env['HOME'];
beforeAll(() => {
  // the sweep watches ~/.gitconfig: give this file's processes (and their bash commands) a home of their own
  home = tempDir('home');
  process.env['HOME'] = home;
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = t\n\temail = t@example.com\n');
});
afterAll(() => {
  process.env['HOME'] = oldHome;
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function repository(): Promise<Harness> {
  const x = await harness();
  execFileSync('git', ['init', '-q'], { cwd: x.root });
  writeFileSync(path.join(x.root, '.git/config'), CONFIG_HEAD);
  writeFileSync(path.join(x.root, '.git/hooks/pre-push'), HOOK);
  chmodSync(path.join(x.root, '.git/hooks/pre-push'), 0o755);
  writeFileSync(path.join(x.root, 'a.txt'), 'a\n');
  await x.svc.saveSettings({ ...x.svc.getSettings(), permissions: ALLOW_ALL });
  return x;
}

async function runBash(x: Harness, commands: string[]): Promise<ToolPart[]> {
  const s = x.newSession();
  await x.svc.runWithModel(
    s,
    scripted([commands.map((command, i) => ({ callId: `c${i}`, toolName: 'bash', input: { command } }))]),
    'go',
  );
  const v = x.svc.getSession(s);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts).filter((p): p is ToolPart => p.type === 'tool');
}

/** Lines that reach git's hooks or configuration through paths the gate cannot read. */
const COMPUTED = [
  `d=.git/hoo; printf '#!/bin/sh\\ntouch pwned\\n' > "\${d}ks/pre-commit"; chmod +x "\${d}ks/pre-commit"`,
  `python3 -c "open('.git/'+'config','a').write('[core]\\n\\tfsmonitor = touch pwned\\n')"`,
  `f=.git/hooks/pre-; echo 'touch pwned' >> "\${f}push"`,
  `chmod 644 "$(printf .gi)t/hooks/pre-push"`,
  `rm "$(printf .gi)t/hooks/pre-push"`,
  `g=.gitconfig; printf '[alias]\\n\\tst = !touch pwned\\n' >> "$HOME/$g"`,
  `h=.git; mkdir -p "$h/hooks/sub" && ln -s /bin/true "$h/hooks/post-checkout"`,
  `c=config; git $c core.hooksPath /tmp`,
];

describe('bash under allow-all cannot change git configuration or hooks behind the gate', () => {
  it('each computed-path change is undone byte for byte and said; git commit then runs nothing planted', async () => {
    h = await repository();
    const x = h;
    const gitconfig = readFileSync(path.join(home, '.gitconfig'), 'utf8');
    // every line here passes the gate unasked (allow-all); a question would mean the line named its target
    const asked: string[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e.patterns.join(' '));
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    let held = 0;
    for (const command of COMPUTED) {
      const [part] = await runBash(x, [command]);
      const intact =
        readFileSync(path.join(x.root, '.git/config'), 'utf8') === CONFIG_HEAD &&
        readFileSync(path.join(x.root, '.git/hooks/pre-push'), 'utf8') === HOOK &&
        (statSync(path.join(x.root, '.git/hooks/pre-push')).mode & 0o777) === 0o755 &&
        !existsSync(path.join(x.root, '.git/hooks/pre-commit')) &&
        !existsSync(path.join(x.root, '.git/hooks/post-checkout')) &&
        readFileSync(path.join(home, '.gitconfig'), 'utf8') === gitconfig;
      const said = /Landfall undid this command's changes to git configuration or hooks/.test(part?.output ?? '');
      if (intact && said) held++;
      else console.log('not held:', command, part?.output);
    }
    console.log(`computed-path git writes under allow-all: ${COMPUTED.length} attempts / ${held} held`);
    expect(held).toBe(COMPUTED.length);
    expect(asked).toEqual([]);
    execFileSync('git', ['add', 'a.txt'], { cwd: x.root });
    execFileSync('git', ['commit', '-q', '-m', 'x'], { cwd: x.root });
    execFileSync('git', ['status', '--short'], { cwd: x.root });
    expect(existsSync(path.join(x.root, 'pwned'))).toBe(false);
    // a folder the command made in the hooks folder and emptied by the sweep goes too
    expect(existsSync(path.join(x.root, '.git/hooks/sub'))).toBe(false);
  });

  it('a command that leaves git alone says nothing; one the user allowed through git_dir keeps its change', async () => {
    h = await repository();
    const x = h;
    const [quiet] = await runBash(x, ['echo hi > b.txt']);
    expect(quiet?.output).toBe('(exit code 0)');
    x.svc.on((e) => {
      if (e.type === 'permission.asked') queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'once' }));
    });
    const [allowed] = await runBash(x, ['echo "exit 0" > .git/hooks/pre-commit']);
    expect(allowed?.output).toBe('(exit code 0)');
    expect(readFileSync(path.join(x.root, '.git/hooks/pre-commit'), 'utf8')).toBe('exit 0\n');
  });

  it('a hooks folder core.hooksPath names, made by the command, is removed with its files', async () => {
    h = await repository();
    const x = h;
    writeFileSync(path.join(x.root, '.git/config'), `${CONFIG_HEAD}\thooksPath = .husky\n`);
    const [part] = await runBash(x, ['p=.hus; mkdir "${p}ky" && echo "touch pwned" > "${p}ky/pre-commit"']);
    expect(existsSync(path.join(x.root, '.husky'))).toBe(false);
    expect(part?.output).toContain(path.join(x.root, '.husky/pre-commit'));
  });
});

describe('the configuration chain and hooks folders reached through links', () => {
  it('an included work-tree file and a hooks folder behind a symlink are put back too', async () => {
    h = await repository();
    const x = h;
    mkdirSync(path.join(x.root, 'tools/hooks'), { recursive: true });
    execFileSync('ln', ['-s', 'tools/hooks', path.join(x.root, '.husky')]);
    writeFileSync(path.join(x.root, 'cfg.inc'), '[user]\n\tname = inc\n');
    writeFileSync(
      path.join(x.root, '.git/config'),
      `${CONFIG_HEAD}\thooksPath = .husky\n[include]\n\tpath = ../cfg.inc\n`,
    );
    const parts = await runBash(x, [
      `n=cfg; printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> "\${n}.inc"`,
      `t=tools/hoo; echo 'touch pwned' > "\${t}ks/pre-commit"`,
    ]);
    expect(readFileSync(path.join(x.root, 'cfg.inc'), 'utf8')).toBe('[user]\n\tname = inc\n');
    expect(existsSync(path.join(x.root, 'tools/hooks/pre-commit'))).toBe(false);
    for (const part of parts) expect(part.output).toMatch(/Landfall undid this command's changes/);
  });
});

describe('a second attacker: many files, a swapped folder, a linked worktree', () => {
  it('a hook planted after 300 fillers, a hooks folder swapped for a link, a worktree config: all put back', async () => {
    h = await repository();
    const x = h;
    const outside = tempDir('outside-hooks');
    for (let i = 0; i < 300; i++) writeFileSync(path.join(outside, `f${i}`), 'keep\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: x.root });
    execFileSync('git', ['commit', '-q', '-m', 'a'], { cwd: x.root });
    execFileSync('git', ['config', 'extensions.worktreeConfig', 'true'], { cwd: x.root });
    const wt = path.join(tempDir('wt'), 'w');
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: x.root });
    const config = readFileSync(path.join(x.root, '.git/config'), 'utf8');
    const lines = [
      `d=.git/hoo; for i in $(seq 300); do : > "\${d}ks/a$i"; done; printf '#!/bin/sh\\ntouch pwned\\n' > "\${d}ks/pre-commit"; chmod +x "\${d}ks/pre-commit"`,
      `d=.git/hoo; rm -rf "\${d}ks"; ln -s ${outside} "\${d}ks"; printf '#!/bin/sh\\ntouch pwned\\n' > ${outside}/pre-commit`,
      `w=.git/work; f=$(ls -d "\${w}trees"/*)/config.worktree; printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> "$f"`,
    ];
    const parts = await runBash(x, lines);
    const hooks = path.join(x.root, '.git/hooks');
    expect(statSync(hooks).isDirectory() && !existsSync(path.join(hooks, 'pre-commit'))).toBe(true);
    expect(readFileSync(path.join(hooks, 'pre-push'), 'utf8')).toBe(HOOK);
    expect(existsSync(path.join(hooks, 'a1'))).toBe(false);
    // what the link led to is never emptied by the sweep: the user's 300 files stay
    expect(existsSync(path.join(outside, 'f299'))).toBe(true);
    expect(readFileSync(path.join(x.root, '.git/config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(x.root, '.git/worktrees/w/config.worktree'))).toBe(false);
    for (const part of parts) expect(part.output).toMatch(/Landfall undid this command's changes/);
    execFileSync('git', ['status', '--short'], { cwd: wt });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'b'], { cwd: x.root });
    expect([existsSync(path.join(x.root, 'pwned')), existsSync(path.join(wt, 'pwned'))]).toEqual([false, false]);
    console.log(`second attacker's sweep bypasses: ${lines.length} attempts / ${lines.length} held`);
  });
});

describe('the sweep itself', () => {
  it('leaves everything alone when a call the user allowed into git ran at the same time, and says why', async () => {
    const root = tempDir('sweep');
    execFileSync('git', ['init', '-q'], { cwd: root });
    const watch = await watchGitPlaces(root);
    const release = holdGitPermission();
    writeFileSync(path.join(root, '.git/hooks/pre-commit'), 'allowed\n');
    release();
    const r = await watch.end();
    expect(r.skipped).toMatch(/allowed to change git configuration or hooks ran at the same time/);
    expect(readFileSync(path.join(root, '.git/hooks/pre-commit'), 'utf8')).toBe('allowed\n');
  });

  it('restores a symlink, a file over the size it keeps is reported, not restored', async () => {
    const root = tempDir('sweep2');
    mkdirSync(path.join(root, 'hooks'));
    writeFileSync(path.join(root, 'big'), Buffer.alloc(1024 * 1024 + 1, 'a'));
    execFileSync('ln', ['-s', 'target', path.join(root, 'hooks/link')]);
    const state = await takeGuardState({ files: [path.join(root, 'big')], folders: [path.join(root, 'hooks')] });
    writeFileSync(path.join(root, 'big'), 'b');
    execFileSync('ln', ['-sfn', 'elsewhere', path.join(root, 'hooks/link')]);
    const r = await restoreGuardState(state);
    expect(r.restored).toEqual([path.join(root, 'hooks/link')]);
    expect(r.unrestored).toEqual([`${path.join(root, 'big')} (it is larger than Landfall keeps to restore)`]);
    expect(execFileSync('readlink', [path.join(root, 'hooks/link')]).toString()).toBe('target\n');
  });
});
