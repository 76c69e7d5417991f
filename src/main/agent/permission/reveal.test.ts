/**
 * The README's read deny rule (`**\/.env*`) keeps the secret's bytes away from the model through every tool that
 * can show them (reveal-policy.ts): read by name or through a symlink alias, grep over the folder or on the
 * alias, glob, list, a folder read, apply_patch, edit's error text, and bash lines naming the file. Every
 * attempt is counted (attempts / held printed); none may let "hunter2" into anything the model reads. A hard link
 * of `.env` (same device and inode under a name no rule matches) is withheld the same way through every tool,
 * while a hard link between two ordinary files (a pnpm store) stays visible.
 */
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const patch = (file: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n-TOKEN=nothing-like-this\n+TOKEN=x\n*** End Patch`;

/** One call per attempt, with what must hold: the call fails, or its output names how many files were withheld. */
const ATTEMPTS: Array<{ call: { toolName: string; input: Record<string, unknown> }; expect: 'refused' | 'withheld' }> =
  [
    { call: { toolName: 'read', input: { filePath: '.env' } }, expect: 'refused' },
    { call: { toolName: 'read', input: { filePath: 'alias.txt' } }, expect: 'refused' },
    { call: { toolName: 'read', input: { filePath: 'config/.env.local' } }, expect: 'refused' },
    { call: { toolName: 'grep', input: { pattern: 'TOKEN' } }, expect: 'withheld' },
    { call: { toolName: 'grep', input: { pattern: 'TOKEN', path: 'alias.txt' } }, expect: 'refused' },
    { call: { toolName: 'grep', input: { pattern: 'hunter', include: '**/.env*' } }, expect: 'withheld' },
    { call: { toolName: 'glob', input: { pattern: '**/.env*' } }, expect: 'withheld' },
    { call: { toolName: 'list', input: {} }, expect: 'withheld' },
    { call: { toolName: 'read', input: { filePath: 'config' } }, expect: 'withheld' },
    { call: { toolName: 'apply_patch', input: { patchText: patch('.env') } }, expect: 'refused' },
    { call: { toolName: 'apply_patch', input: { patchText: patch('alias.txt') } }, expect: 'refused' },
    {
      call: { toolName: 'edit', input: { filePath: 'alias.txt', oldString: 'TOKEN=nothing', newString: 'x' } },
      expect: 'refused',
    },
    { call: { toolName: 'bash', input: { command: 'cat .env' } }, expect: 'refused' },
    { call: { toolName: 'bash', input: { command: 'cat alias.txt' } }, expect: 'refused' },
    { call: { toolName: 'bash', input: { command: 'cat < config/.env.local' } }, expect: 'refused' },
  ];

describe('a read deny rule holds for every tool that can show a file', () => {
  it('no tool output carries the secret (attempts / held)', async () => {
    h = await harness();
    const x = h;
    writeFileSync(path.join(x.root, '.env'), 'TOKEN=hunter2\n');
    mkdirSync(path.join(x.root, 'config'));
    writeFileSync(path.join(x.root, 'config/.env.local'), 'TOKEN=hunter2-local\n');
    writeFileSync(path.join(x.root, 'config/app.json'), '{"TOKEN": "public"}\n');
    symlinkSync('.env', path.join(x.root, 'alias.txt'));
    await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [
        { permission: 'read', pattern: '**/.env*', action: 'deny' },
        { permission: 'bash', pattern: 'cat', action: 'allow' },
      ],
    });
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    const calls = ATTEMPTS.map((a, i) => ({ callId: `c${i}`, ...a.call }));
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    const v = x.svc.getSession(s);
    if (!v.ok) throw new Error(v.error.message);
    const parts = v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
    expect(parts).toHaveLength(ATTEMPTS.length);
    let held = 0;
    const failures: string[] = [];
    for (const [i, a] of ATTEMPTS.entries()) {
      const p = parts[i];
      if (p?.type !== 'tool') continue;
      const text = JSON.stringify(p);
      const safe = !text.includes('hunter2');
      const ok =
        a.expect === 'refused'
          ? p.state === 'error' && p.error?.code === 'permission_denied'
          : p.state === 'completed' && /withheld|left out/.test(p.output ?? '');
      if (safe && ok) held++;
      else failures.push(`${a.call.toolName} ${JSON.stringify(a.call.input)}: ${p.output}`);
    }
    console.log(`read deny **/.env* leak attempts: ${ATTEMPTS.length} attempts / ${held} held`);
    expect(failures).toEqual([]);
    // the bash lines were asked (not allowed by `cat`), and the question says which file and why
    expect(asked.map((e) => e.reasons?.join(' '))).toEqual([
      expect.stringMatching(/names \.env, and a read rule denies it/),
      expect.stringMatching(/names alias\.txt \(\.env\), and a read rule denies it/),
      expect.stringMatching(/names config\/\.env\.local, and a read rule denies it/),
    ]);
    // what may be shown still is
    const grep = parts[3];
    expect(grep?.type === 'tool' && grep.output).toContain('config/app.json:');
  });
});

const HARD_LINK_ATTEMPTS: Array<{
  call: { toolName: string; input: Record<string, unknown> };
  expect: 'refused' | 'withheld';
}> = [
  { call: { toolName: 'read', input: { filePath: 'hard.txt' } }, expect: 'refused' },
  { call: { toolName: 'read', input: { filePath: 'docs/deep/copy.md' } }, expect: 'refused' },
  { call: { toolName: 'grep', input: { pattern: 'secret', ignoreCase: true } }, expect: 'withheld' },
  { call: { toolName: 'grep', input: { pattern: 'secret', path: 'hard.txt', ignoreCase: true } }, expect: 'refused' },
  { call: { toolName: 'grep', input: { pattern: 'zz', path: 'docs' } }, expect: 'withheld' },
  { call: { toolName: 'glob', input: { pattern: '**/*.{txt,md}' } }, expect: 'withheld' },
  { call: { toolName: 'list', input: {} }, expect: 'withheld' },
  { call: { toolName: 'read', input: { filePath: 'docs/deep' } }, expect: 'withheld' },
  { call: { toolName: 'apply_patch', input: { patchText: patch('hard.txt') } }, expect: 'refused' },
  {
    call: { toolName: 'edit', input: { filePath: 'hard.txt', oldString: 'TOKEN=nothing', newString: 'x' } },
    expect: 'refused',
  },
  { call: { toolName: 'write', input: { filePath: 'hard.txt', content: 'x\n' } }, expect: 'refused' },
  {
    call: {
      toolName: 'multiedit',
      input: { filePath: 'docs/deep/copy.md', edits: [{ oldString: 'SECRET', newString: 'S' }] },
    },
    expect: 'refused',
  },
  { call: { toolName: 'bash', input: { command: 'cat hard.txt' } }, expect: 'refused' },
];

describe('a hard link of a denied file is denied as the file is (same device and inode)', () => {
  it('no tool output carries the secret through the hard link (attempts / held)', async () => {
    h = await harness();
    const x = h;
    writeFileSync(path.join(x.root, '.env'), 'SECRET=zz-hunter3\n');
    linkSync(path.join(x.root, '.env'), path.join(x.root, 'hard.txt'));
    mkdirSync(path.join(x.root, 'docs/deep'), { recursive: true });
    linkSync(path.join(x.root, '.env'), path.join(x.root, 'docs/deep/copy.md'));
    // two names of one ordinary file (as a pnpm store links them): both stay visible
    writeFileSync(path.join(x.root, 'docs/lib.js'), 'export const secretSauce = "zz-public";\n');
    linkSync(path.join(x.root, 'docs/lib.js'), path.join(x.root, 'docs/lib-copy.js'));
    await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [
        { permission: 'read', pattern: '**/.env*', action: 'deny' },
        { permission: 'bash', pattern: 'cat', action: 'allow' },
      ],
    });
    const asked: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    const calls = HARD_LINK_ATTEMPTS.map((a, i) => ({ callId: `c${i}`, ...a.call }));
    await x.svc.runWithModel(s, scripted([calls]), 'go');
    const v = x.svc.getSession(s);
    if (!v.ok) throw new Error(v.error.message);
    const parts = v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
    expect(parts).toHaveLength(HARD_LINK_ATTEMPTS.length);
    let held = 0;
    const failures: string[] = [];
    for (const [i, a] of HARD_LINK_ATTEMPTS.entries()) {
      const p = parts[i];
      if (p?.type !== 'tool') continue;
      const text = JSON.stringify(p);
      const safe = !text.includes('hunter3');
      const ok =
        a.expect === 'refused'
          ? p.state === 'error' && p.error?.code === 'permission_denied'
          : p.state === 'completed' && /withheld|left out/.test(p.output ?? '');
      if (safe && ok) held++;
      else failures.push(`${a.call.toolName} ${JSON.stringify(a.call.input)}: ${p.output}`);
    }
    console.log(`read deny **/.env* through hard links: ${HARD_LINK_ATTEMPTS.length} attempts / ${held} held`);
    expect(failures).toEqual([]);
    const read = parts[0];
    expect(read?.type === 'tool' && read.output).toMatch(/hard link of \.env/);
    expect(asked.map((e) => e.reasons?.join(' '))).toEqual([
      expect.stringMatching(/names hard\.txt, and it is a hard link of \.env/),
    ]);
    // the ordinary linked pair is still shown, under both names
    const grep = parts[2];
    expect(grep?.type === 'tool' && grep.output).toContain('docs/lib.js:');
    expect(grep?.type === 'tool' && grep.output).toContain('docs/lib-copy.js:');
  });
});
