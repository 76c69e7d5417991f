/**
 * Rules follow settings.json while the service runs (settings/live.ts): a deny rule added by hand in a text
 * editor applies at the very next tool call of the running turn; a file broken by hand keeps the last good
 * rules, and until it is fixed every call a rule does not deny is asked — with the reason in the question.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

function toolParts(x: Harness, sessionId: string) {
  const v = x.svc.getSession(sessionId);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
}

describe('settings.json edited by hand while the service runs', () => {
  it('a deny rule added by hand applies at the next tool call', async () => {
    h = await harness();
    const x = h;
    writeFileSync(path.join(x.root, '.env'), 'TOKEN=hunter2\n');
    await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [{ permission: 'edit', pattern: '**', action: 'ask' }],
    });
    const file = path.join(x.dataDir, 'settings.json');
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      // while the first call waits, the user adds a read deny rule in a text editor, then allows the write
      const json = JSON.parse(readFileSync(file, 'utf8')) as { permissions: unknown[] };
      json.permissions.push({ permission: 'read', pattern: '**/.env*', action: 'deny' });
      writeFileSync(file, JSON.stringify(json, null, 2));
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'once' }));
    });
    const s = x.newSession();
    await x.svc.runWithModel(
      s,
      scripted([
        [
          { callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } },
          { callId: 'r', toolName: 'read', input: { filePath: '.env' } },
        ],
      ]),
      'go',
    );
    const [write, read] = toolParts(x, s);
    expect(write?.type === 'tool' && write.state).toBe('completed');
    expect(read?.type === 'tool' && [read.state, read.error?.code]).toEqual(['error', 'permission_denied']);
    expect(JSON.stringify(toolParts(x, s))).not.toContain('hunter2');
    expect(x.svc.getSettings().permissions).toHaveLength(2);
  });

  it('a broken file keeps the last good rules and asks for everything else, saying why', async () => {
    h = await harness();
    const x = h;
    await x.svc.saveSettings({
      ...x.svc.getSettings(),
      permissions: [{ permission: 'read', pattern: 'secret.txt', action: 'deny' }],
    });
    writeFileSync(path.join(x.root, 'secret.txt'), 'hunter2\n');
    const file = path.join(x.dataDir, 'settings.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"permissions": [', '"permissions": [ {"permission": "read",'),
    );
    const seen: EventOf<'permission.asked'>[] = [];
    x.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      seen.push(e);
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'reject' }));
    });
    const s = x.newSession();
    await x.svc.runWithModel(
      s,
      scripted([
        [
          { callId: 'w', toolName: 'write', input: { filePath: 'new.txt', content: 'x\n' } },
          { callId: 'r', toolName: 'read', input: { filePath: 'secret.txt' } },
        ],
      ]),
      'go',
    );
    // the write (allowed by default) was asked because the file is broken; the read is still denied outright
    expect(seen.map((e) => [e.permission, e.patterns])).toEqual([['edit', ['new.txt']]]);
    expect(seen[0]?.reasons?.join(' ')).toMatch(
      /settings\.json cannot be used .*every call a rule does not deny is asked/,
    );
    const [write, read] = toolParts(x, s);
    expect(write?.type === 'tool' && write.error?.code).toBe('permission_denied');
    expect(read?.type === 'tool' && read.error?.code).toBe('permission_denied');
    expect(seen).toHaveLength(1);
  });
});
