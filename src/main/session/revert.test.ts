/**
 * Revert, unrevert, cleanup and the public bug reproductions for revert (fixtures/bugs/README.md B31, B36, B37, B38), on real sessions:
 * a real service (SQLite in a temp data folder, real snapshot store) driven by the replay provider with
 * hand-written calls, so every step goes through the real loop and tools.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import { harness, scripted } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const write = (callId: string, filePath: string, content: string) => ({
  callId,
  toolName: 'write',
  input: { filePath, content },
});
const read = (callId: string, filePath: string) => ({ callId, toolName: 'read', input: { filePath } });
const edit = (callId: string, filePath: string, oldString: string, newString: string) => ({
  callId,
  toolName: 'edit',
  input: { filePath, oldString, newString },
});
const bash = (callId: string, command: string) => ({ callId, toolName: 'bash', input: { command } });

async function allowBash(x: Harness): Promise<void> {
  const s = x.svc.getSettings();
  const saved = await x.svc.saveSettings({
    ...s,
    permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
  });
  expect(saved.ok).toBe(true);
}

async function turns(x: Harness, session: string, model: ReturnType<typeof scripted>, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await x.svc.runWithModel(session, model, `turn ${i + 1}`);
    if (!r.ok) throw new Error(r.error.message);
    ids.push(r.value.userMessageId);
  }
  return ids;
}

const file = (x: Harness, p: string): string | undefined =>
  existsSync(path.join(x.root, p)) ? readFileSync(path.join(x.root, p), 'utf8') : undefined;

describe('revert / unrevert / cleanup', () => {
  it('cleanup on the next message removes only what lies after the boundary', async () => {
    h = await harness();
    const s = h.newSession();
    const model = scripted([
      [write('a', 'a.txt', 'one\n')],
      [write('b', 'b.txt', 'two\n')],
      [write('c', 'c.txt', 'three\n')],
      [],
    ]);
    const [, second] = await turns(h, s, model, 3);
    const rv = await h.svc.revert(s, second as string);
    expect(rv.ok && rv.value.deleted.sort()).toEqual(['b.txt', 'c.txt']);
    expect(
      h.svc.getSession(s).ok && (h.svc.getSession(s) as { value: { messages: unknown[] } }).value.messages,
    ).toHaveLength(6);
    const removed: CoreEvent[] = [];
    h.svc.on((e) => {
      if (e.type === 'message.removed') removed.push(e);
    });
    await h.svc.runWithModel(s, model, 'new direction');
    const view = h.svc.getSession(s);
    if (!view.ok) throw new Error('no session');
    expect(view.value.session.revert).toBeUndefined();
    expect(view.value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(h.svc.store.messageText(view.value.messages[2]?.id as string)).toBe('new direction');
    expect(removed).toHaveLength(1);
    expect(file(h, 'a.txt')).toBe('one\n');
    expect(file(h, 'b.txt')).toBeUndefined();
    expect(file(h, 'c.txt')).toBeUndefined();
  });

  it('revert to a part inside a message undoes only the steps from that part on', async () => {
    h = await harness();
    const s = h.newSession();
    await turns(h, s, scripted([[write('a', 'a.txt', 'A\n'), write('b', 'b.txt', 'B\n')]]), 1);
    const view = h.svc.getSession(s);
    if (!view.ok) throw new Error('no session');
    const assistant = view.value.messages[1];
    const bTool = assistant?.parts.find((p) => p.type === 'tool' && p.callId === 'b');
    const stepStart = assistant?.parts[assistant.parts.indexOf(bTool as never) - 1];
    expect(stepStart?.type).toBe('step-start');
    const rv = await h.svc.revert(s, assistant?.id as string, stepStart?.id);
    expect(rv.ok).toBe(true);
    expect(file(h, 'a.txt')).toBe('A\n');
    expect(file(h, 'b.txt')).toBeUndefined();
  });

  it('refuses while the session is busy', async () => {
    h = await harness();
    const s = h.newSession();
    const asked: Promise<string> = new Promise((resolve) =>
      h?.svc.on((e) => {
        if (e.type === 'permission.asked') resolve(e.requestId);
      }),
    );
    const running = h.svc.runWithModel(s, scripted([[bash('x', 'echo hi')]]), 'go');
    const requestId = await asked;
    const first = h.svc.getSession(s);
    const userId = first.ok ? (first.value.messages[0]?.id as string) : '';
    const rv = await h.svc.revert(s, userId);
    expect(!rv.ok && rv.error.code).toBe('busy');
    h.svc.answerPermission(requestId, { answer: 'reject', reason: 'not now' });
    await running;
  });

  it('B31: a file the user changed after the agent step is a conflict; kept unless forced; unrevert gives the user version back', async () => {
    h = await harness();
    const s = h.newSession();
    writeFileSync(path.join(h.root, 'a.txt'), 'base\n');
    const [first] = await turns(h, s, scripted([[read('r', 'a.txt'), edit('e', 'a.txt', 'base', 'agent')]]), 1);
    writeFileSync(path.join(h.root, 'a.txt'), 'agent\nuser line\n');
    const preview = await h.svc.revert(s, first as string, undefined, { preview: true });
    expect(preview.ok && preview.value.conflicts).toEqual([{ path: 'a.txt', reason: 'changed_after_step' }]);
    expect(file(h, 'a.txt')).toBe('agent\nuser line\n');
    const soft = await h.svc.revert(s, first as string);
    expect(soft.ok && soft.value.skipped).toEqual(['a.txt']);
    expect(file(h, 'a.txt')).toBe('agent\nuser line\n');
    const forced = await h.svc.revert(s, first as string, undefined, { force: true });
    expect(forced.ok && forced.value.restored).toEqual(['a.txt']);
    expect(file(h, 'a.txt')).toBe('base\n');
    const un = await h.svc.unrevert(s);
    expect(un.ok).toBe(true);
    expect(file(h, 'a.txt')).toBe('agent\nuser line\n');
  });

  it('B36: revert touches only what this session wrote', async () => {
    h = await harness();
    writeFileSync(path.join(h.root, 'two.txt'), 'two\n');
    const s1 = h.newSession('one');
    const s2 = h.newSession('two');
    const [s1first] = await turns(h, s1, scripted([[write('w', 'one.txt', 'one\n')]]), 1);
    await turns(h, s2, scripted([[read('r', 'two.txt'), edit('e', 'two.txt', 'two', 'TWO')]]), 1);
    const rv = await h.svc.revert(s1, s1first as string);
    expect(rv.ok && rv.value.deleted).toEqual(['one.txt']);
    expect(file(h, 'one.txt')).toBeUndefined();
    expect(file(h, 'two.txt')).toBe('TWO\n');
    const v2 = h.svc.getSession(s2);
    expect(v2.ok && v2.value.session.revert).toBeUndefined();
    expect(v2.ok && v2.value.messages).toHaveLength(2);
  });

  it('B36: a bash step claims only what other sessions did not write meanwhile', async () => {
    h = await harness();
    await allowBash(h);
    const s1 = h.newSession('one');
    const s2 = h.newSession('two');
    const x = h;
    let started!: () => void;
    const bashRunning = new Promise<void>((r) => {
      started = r;
    });
    h.svc.on((e) => {
      if (e.type === 'part.updated' && e.part.type === 'tool' && e.part.tool === 'bash' && e.part.state === 'running')
        started();
    });
    const first = x.svc.runWithModel(s1, scripted([[bash('b', 'sleep 0.6 && echo one > one.txt')]]), 'slow');
    await bashRunning;
    await x.svc.runWithModel(s2, scripted([[write('w', 'two.txt', 'two\n')]]), 'fast');
    const r1 = await first;
    const v = x.svc.getSession(s1);
    const patch = v.ok ? v.value.messages[1]?.parts.find((p) => p.type === 'patch') : undefined;
    expect(patch?.type === 'patch' && patch.files).toEqual(['one.txt']);
    const rv = await x.svc.revert(s1, r1.ok ? r1.value.userMessageId : '');
    expect(rv.ok && rv.value.deleted).toEqual(['one.txt']);
    expect(file(x, 'two.txt')).toBe('two\n');
  });

  it('B37: a file the agent only tried to read is never deleted by revert', async () => {
    h = await harness();
    const s = h.newSession();
    const [first] = await turns(h, s, scripted([[read('r', 'notes.md'), write('w', 'made.txt', 'x\n')]]), 1);
    const v = h.svc.getSession(s);
    const readPart = v.ok ? v.value.messages[1]?.parts.find((p) => p.type === 'tool' && p.callId === 'r') : undefined;
    expect(readPart?.type === 'tool' && readPart.error?.code).toBe('file_not_found');
    writeFileSync(path.join(h.root, 'notes.md'), 'my notes\n');
    const rv = await h.svc.revert(s, first as string);
    expect(rv.ok && rv.value.deleted).toEqual(['made.txt']);
    expect(file(h, 'notes.md')).toBe('my notes\n');
  });

  it('B38: a file the agent deleted with bash (rm, mv) comes back on revert', async () => {
    h = await harness();
    await allowBash(h);
    const s = h.newSession();
    mkdirSync(path.join(h.root, 'sub'));
    const model = scripted([
      [write('w', 'tmp.txt', 'temporary\n'), write('w2', 'sub/old.txt', 'old\n')],
      [bash('rm', 'rm tmp.txt && mv sub/old.txt sub/new.txt')],
    ]);
    const [, second] = await turns(h, s, model, 2);
    expect(file(h, 'tmp.txt')).toBeUndefined();
    expect(file(h, 'sub/new.txt')).toBe('old\n');
    const rv = await h.svc.revert(s, second as string);
    expect(rv.ok).toBe(true);
    expect(file(h, 'tmp.txt')).toBe('temporary\n');
    expect(file(h, 'sub/old.txt')).toBe('old\n');
    expect(file(h, 'sub/new.txt')).toBeUndefined();
  });
});
