/**
 * Permissions: the rule evaluation (pure) and the gate inside real sessions — ask becomes an event with the
 * preview diff; once / always (this session) / reject with a reason the model reads; a configured deny beats a
 * saved "always"; a path outside the project is refused without a question.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../../shared/events';
import { bashPatternMatches, decidePermission } from './rules';
import type { PermissionGrant, PermissionRule } from './rules';
import type { PermissionRequest } from '../../tools/types';
import { harness, scripted } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

const editReq = (p: string) => ({ tool: 'write', permission: 'edit' as const, patterns: [p], title: `write ${p}` });

const decide = (rules: PermissionRule[], grants: PermissionGrant[], req: PermissionRequest) =>
  decidePermission(rules, grants, req).action;

describe('decidePermission on paths', () => {
  it('defaults: read and edit allowed, outside paths asked', () => {
    expect(decide([], [], editReq('a.ts'))).toBe('allow');
    expect(
      decide([], [], { tool: 'read', permission: 'external_directory', patterns: ['/etc/passwd'], title: 'x' }),
    ).toBe('ask');
  });

  it('the last matching rule decides; globs match dot files', () => {
    const rules: PermissionRule[] = [
      { permission: 'edit', pattern: '**', action: 'ask' },
      { permission: 'edit', pattern: 'src/**', action: 'allow' },
    ];
    expect(decide(rules, [], editReq('src/a.ts'))).toBe('allow');
    expect(decide(rules, [], editReq('README.md'))).toBe('ask');
    expect(
      decide([{ permission: 'edit', pattern: '**/.env*', action: 'deny' }], [], editReq('config/.env.local')),
    ).toBe('deny');
  });

  it('a configured deny beats a saved always grant; the strictest pattern wins', () => {
    const rules: PermissionRule[] = [{ permission: 'edit', pattern: 'secrets/**', action: 'deny' }];
    const grants: PermissionGrant[] = [{ kind: 'exact', permission: 'edit', values: ['secrets/key.pem'] }];
    expect(decide(rules, grants, editReq('secrets/key.pem'))).toBe('deny');
    expect(decide(rules, [], { ...editReq('a.ts'), patterns: ['a.ts', 'secrets/x'] })).toBe('deny');
  });

  it('an exact path grant is compared as text, never as a glob', () => {
    const rules: PermissionRule[] = [{ permission: 'edit', pattern: '**', action: 'ask' }];
    const grants: PermissionGrant[] = [{ kind: 'exact', permission: 'edit', values: ['src/[id].tsx'] }];
    expect(decide(rules, grants, editReq('src/[id].tsx'))).toBe('allow');
    expect(decide(rules, grants, editReq('src/i.tsx'))).toBe('ask');
  });

  it('bash patterns are the first words of a command', () => {
    expect(bashPatternMatches('npm test', ['npm', 'test', '--', '--run'])).toBe(true);
    expect(bashPatternMatches('npm test', ['npm', 'testing'])).toBe(false);
    expect(bashPatternMatches('git *', ['git', 'status'])).toBe(true);
    expect(bashPatternMatches('git *', ['gitk'])).toBe(false);
    expect(bashPatternMatches('git status*', ['git', 'status-evil'])).toBe(false);
    expect(bashPatternMatches('*', ['anything'])).toBe(true);
  });
});

describe('permission gate in a session', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function withEditAsk(x: Harness, extra: PermissionRule[] = []): Promise<void> {
    const r = await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [{ permission: 'edit', pattern: '**', action: 'ask' }, ...extra],
    });
    expect(r.ok).toBe(true);
  }

  function answerWith(
    x: Harness,
    answers: ('once' | 'always' | 'reject')[],
    seen: EventOf<'permission.asked'>[],
    reason?: string,
  ): void {
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      seen.push(e);
      const answer = answers.shift() ?? 'reject';
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer, reason }));
    });
  }

  const w = (id: string, p: string, c: string) => ({
    callId: id,
    toolName: 'write',
    input: { filePath: p, content: c },
  });

  it('ask carries the preview diff; once allows one call, the next asks again', async () => {
    h = await harness();
    await withEditAsk(h);
    const seen: EventOf<'permission.asked'>[] = [];
    answerWith(h, ['once', 'once'], seen);
    const s = h.newSession();
    await h.svc.runWithModel(s, scripted([[w('1', 'a.txt', 'one\n'), w('2', 'b.txt', 'two\n')]]), 'go');
    expect(seen).toHaveLength(2);
    expect(seen[0]?.permission).toBe('edit');
    expect(seen[0]?.patterns).toEqual(['a.txt']);
    expect(seen[0]?.preview?.[0]?.patch).toContain('+one');
    expect(readFileSync(path.join(h.root, 'b.txt'), 'utf8')).toBe('two\n');
  });

  it('always grants the same path for the rest of the session only', async () => {
    h = await harness();
    await withEditAsk(h);
    const seen: EventOf<'permission.asked'>[] = [];
    answerWith(h, ['always', 'once'], seen);
    const s = h.newSession();
    await h.svc.runWithModel(
      s,
      scripted([
        [
          w('1', 'a.txt', 'one\n'),
          { callId: 'r', toolName: 'read', input: { filePath: 'a.txt' } },
          { callId: 'e', toolName: 'edit', input: { filePath: 'a.txt', oldString: 'one', newString: 'ONE' } },
        ],
      ]),
      'go',
    );
    expect(seen).toHaveLength(1);
    expect(readFileSync(path.join(h.root, 'a.txt'), 'utf8')).toBe('ONE\n');
    const other = h.newSession();
    await h.svc.runWithModel(
      other,
      scripted([[{ callId: 'r2', toolName: 'read', input: { filePath: 'a.txt' } }, w('x', 'a.txt', 'other\n')]]),
      'go',
    );
    expect(seen).toHaveLength(2);
    expect(readFileSync(path.join(h.root, 'a.txt'), 'utf8')).toBe('other\n');
  });

  it('reject with a reason: nothing written, the model reads the reason', async () => {
    h = await harness();
    await withEditAsk(h);
    const seen: EventOf<'permission.asked'>[] = [];
    answerWith(h, ['reject'], seen, 'use the config folder instead');
    const s = h.newSession();
    await h.svc.runWithModel(s, scripted([[w('1', 'a.txt', 'one\n')]]), 'go');
    expect(existsSync(path.join(h.root, 'a.txt'))).toBe(false);
    const v = h.svc.getSession(s);
    const tool = v.ok ? v.value.messages[1]?.parts.find((p) => p.type === 'tool') : undefined;
    expect(tool?.type === 'tool' && tool.error?.code).toBe('permission_denied');
    expect(tool?.type === 'tool' && tool.output).toContain('use the config folder instead');
  });

  it('a configured deny beats an always answer given earlier in the session', async () => {
    h = await harness();
    await withEditAsk(h);
    const seen: EventOf<'permission.asked'>[] = [];
    answerWith(h, ['always'], seen);
    const s = h.newSession();
    await h.svc.runWithModel(s, scripted([[w('1', 'secret.txt', 'v1\n')]]), 'go');
    expect(seen).toHaveLength(1);
    await withEditAsk(h, [{ permission: 'edit', pattern: 'secret.txt', action: 'deny' }]);
    await h.svc.runWithModel(
      s,
      scripted([[{ callId: 'r', toolName: 'read', input: { filePath: 'secret.txt' } }, w('2', 'secret.txt', 'v2\n')]]),
      'again',
    );
    expect(seen).toHaveLength(1);
    expect(readFileSync(path.join(h.root, 'secret.txt'), 'utf8')).toBe('v1\n');
  });

  it('a read deny rule refuses reading without asking', async () => {
    h = await harness();
    await h.svc.saveSettings({
      ...h.svc.getSettings(),
      permissions: [{ permission: 'read', pattern: '**/.env*', action: 'deny' }],
    });
    const seen: EventOf<'permission.asked'>[] = [];
    answerWith(h, [], seen);
    const s = h.newSession();
    await h.svc.runWithModel(
      s,
      scripted([[{ callId: 'r', toolName: 'read', input: { filePath: 'config/.env' } }]]),
      'go',
    );
    const v = h.svc.getSession(s);
    const tool = v.ok ? v.value.messages[1]?.parts.find((p) => p.type === 'tool') : undefined;
    expect(tool?.type === 'tool' && [tool.error?.code, tool.output?.includes('config/.env')]).toEqual([
      'permission_denied',
      true,
    ]);
    expect(seen).toEqual([]);
  });

  it('a path outside the project is refused up front (outside_root), never asked and then refused', async () => {
    // Hostile review: an outside read was asked as external_directory and, after "once" or "always", refused
    // anyway with outside_root. Every file tool, by an absolute path and by a relative escape, under every answer
    // the user could give and under an allow rule for external_directory: no question, the same refusal.
    const tally = { attempts: 0, held: 0 };
    for (const answer of ['once', 'always', 'allow rule'] as const) {
      h = await harness();
      if (answer === 'allow rule')
        await withEditAsk(h, [{ permission: 'external_directory', pattern: '**', action: 'allow' }]);
      const seen: EventOf<'permission.asked'>[] = [];
      answerWith(
        h,
        Array.from({ length: 8 }, () => (answer === 'allow rule' ? 'once' : answer)),
        seen,
      );
      const outside = path.join(path.dirname(h.root), `elsewhere-${answer.replace(' ', '-')}.txt`);
      writeFileSync(outside, 'secret outside\n');
      const rel = `../${path.basename(outside)}`;
      const calls = [
        { toolName: 'read', input: { filePath: outside } },
        { toolName: 'read', input: { filePath: rel } },
        { toolName: 'list', input: { path: path.dirname(h.root) } },
        { toolName: 'grep', input: { pattern: 'secret', path: '..' } },
        { toolName: 'glob', input: { pattern: '*.txt', path: '..' } },
        { toolName: 'write', input: { filePath: outside, content: 'x' } },
        { toolName: 'edit', input: { filePath: rel, oldString: 'secret', newString: 'x' } },
      ].map((c, i) => ({ callId: `o${i}`, ...c }));
      const s = h.newSession();
      await h.svc.runWithModel(s, scripted([calls]), 'go');
      expect(seen.map((e) => e.permission)).toEqual([]);
      const v = h.svc.getSession(s);
      const parts = v.ok ? (v.value.messages[1]?.parts ?? []).filter((p) => p.type === 'tool') : [];
      expect(parts).toHaveLength(calls.length);
      for (const p of parts) {
        tally.attempts++;
        const code = p.type === 'tool' ? p.error?.code : undefined;
        if (code === 'outside_root' && !(p.type === 'tool' && (p.output ?? '').includes('secret outside')))
          tally.held++;
        expect(code).toBe('outside_root');
      }
      expect(readFileSync(outside, 'utf8')).toBe('secret outside\n');
      rmSync(outside);
      await h.close();
      h = undefined;
    }
    console.log(`[hostile] outside paths refused without a question: ${tally.attempts} attempts / ${tally.held} held`);
    expect(tally.held).toBe(tally.attempts);
  });
});
