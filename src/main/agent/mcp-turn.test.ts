/**
 * MCP tools in a real turn: the user's server from settings joins the built-in tools as `<server>_<tool>`, the
 * permission gate asks `mcp` for it (no rule: ask, like any unknown server), an allow rule for `t_*` lets it run
 * without a question, a deny rule refuses it, and what the model reads is the server's answer.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { harness, scripted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

const SERVER = path.resolve(import.meta.dirname, '../reach/mcp/testing/server.mjs');
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function run(rules: unknown[], answer?: 'once' | 'reject') {
  h = await harness();
  const x = h;
  await x.svc.saveSettings({
    ...x.svc.getSettings(),
    permissions: rules,
    mcp: { servers: { t: { command: process.execPath, args: [SERVER], env: {} } } },
  });
  const asked: EventOf<'permission.asked'>[] = [];
  x.svc.on((e) => {
    if (e.type !== 'permission.asked') return;
    asked.push(e);
    queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: answer ?? 'reject' }));
  });
  const s = x.newSession();
  await x.svc.runWithModel(
    s,
    scripted([[{ callId: 'e', toolName: 't_echo', input: { text: 'from the model' } }]]),
    'go',
  );
  const v = x.svc.getSession(s);
  if (!v.ok) throw new Error(v.error.message);
  const part = v.value.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool');
  return { asked, part: part?.type === 'tool' ? part : undefined };
}

describe('MCP tools in a turn', () => {
  it('asks mcp for an unknown server, and runs the tool once allowed', async () => {
    const { asked, part } = await run([], 'once');
    expect(asked.map((e) => [e.permission, e.patterns])).toEqual([['mcp', ['t_echo']]]);
    expect([part?.state, part?.output]).toEqual(['completed', 'echo: from the model']);
  });

  it('an allow rule for the server runs it without a question; a deny rule refuses it', async () => {
    const allowed = await run([{ permission: 'mcp', pattern: 't_*', action: 'allow' }]);
    expect(allowed.asked).toEqual([]);
    expect(allowed.part?.output).toBe('echo: from the model');
    await h?.close();
    const denied = await run([{ permission: 'mcp', pattern: 't_echo', action: 'deny' }]);
    expect(denied.asked).toEqual([]);
    expect([denied.part?.state, denied.part?.error?.code]).toEqual(['error', 'permission_denied']);
  });
});
