/**
 * The admission queue through the real service, store and loop (scripted models behind the settings' provider):
 * messages sent while a turn runs are stored at once, queued, and run in order, one turn each; a queued message
 * can be edited or removed until it is promoted (then `conflict`); "send now" joins the running turn at the next
 * step boundary; and a crash between admit and promote (a crash child killed) leaves the message queued after the
 * restart, promoted exactly once when resumed. Each asserted on what the model was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { CoreEvent } from '../../shared/events';
import { AgentService } from './service';
import { cleanupTemp, harness, tempDir } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { runAndKill } from './testing/run-and-kill';
import { stepModel } from './testing/step-model';
import type { ScriptEntry } from './testing/step-model';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The text of the last user message of a request. */
function lastUser(request: LanguageModelV3CallOptions | undefined): string {
  const users = (request?.prompt ?? []).filter((m) => m.role === 'user');
  const content = users.at(-1)?.content ?? [];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** A gate a scripted step waits on, and its opener. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Resolves once `n` turns of `sessionId` ended (session.state idle or error). */
function turnsEnded(svc: AgentService, sessionId: string, n: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const off = svc.on((e: CoreEvent) => {
      if (e.type === 'session.state' && e.sessionId === sessionId && e.state !== 'busy' && ++seen === n) {
        off();
        resolve();
      }
    });
  });
}

async function withScript(script: ScriptEntry[]) {
  const scripted = stepModel(script);
  h = await harness({ models: () => scripted.model });
  return { ...scripted, hh: h, s: h.newSession() };
}

describe('admission queue', () => {
  it('messages sent while a turn runs are queued, then run in order, one turn each', async () => {
    const held = gate();
    const { hh, s, requests } = await withScript([
      { text: 'one done', hold: held.wait },
      { text: 'two done' },
      { text: 'three done' },
    ]);
    const ended = turnsEnded(hh.svc, s, 3);
    const first = hh.svc.send(s, 'one');
    expect(first.ok && first.value.started).toBe(true);
    // the first turn is running (held at the model): these are stored at once and queued
    await new Promise<void>((resolve) => {
      const off = hh.svc.on((e) => {
        if (e.type === 'message.added' && e.message.role === 'assistant') {
          off();
          resolve();
        }
      });
    });
    const two = hh.svc.send(s, 'two');
    const three = hh.svc.send(s, 'three');
    expect([two.ok && two.value.started, three.ok && three.value.started]).toEqual([false, false]);
    expect(hh.svc.queued.list(s).map((q) => q.text)).toEqual(['two', 'three']);
    held.open();
    await ended;
    expect(requests.map(lastUser)).toEqual(['one', 'two', 'three']);
    const v = hh.svc.getSession(s);
    expect(v.ok && v.value.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(hh.svc.queued.list(s)).toEqual([]);
    const rows = hh.svc.store.db.prepare('SELECT state, count(*) AS n FROM inbox GROUP BY state').all();
    expect(rows).toEqual([{ state: 'promoted', n: 3 }]);
  });

  it('a queued message can be edited or removed until it is promoted; then conflict', async () => {
    const held = gate();
    const { hh, s, requests } = await withScript([{ text: 'first', hold: held.wait }, { text: 'edited ran' }]);
    const ended = turnsEnded(hh.svc, s, 2);
    hh.svc.send(s, 'first');
    await new Promise<void>((resolve) => {
      const off = hh.svc.on((e) => {
        if (e.type === 'message.added' && e.message.role === 'assistant') {
          off();
          resolve();
        }
      });
    });
    const a = hh.svc.send(s, 'draft');
    const b = hh.svc.send(s, 'never');
    const aid = a.ok ? a.value.id : '';
    const bid = b.ok ? b.value.id : '';
    expect(hh.svc.queued.edit(s, aid, { text: 'draft, edited' }).ok).toBe(true);
    expect(hh.svc.queued.remove(s, bid)).toEqual({ ok: true, value: undefined });
    const empty = hh.svc.queued.edit(s, aid, { text: '  ' });
    expect(!empty.ok && empty.error.code).toBe('invalid_input');
    held.open();
    await ended;
    expect(requests.map(lastUser)).toEqual(['first', 'draft, edited']);
    const late = hh.svc.queued.edit(s, aid, { text: 'too late' });
    expect(!late.ok && late.error.code).toBe('conflict');
    const gone = hh.svc.queued.remove(s, aid);
    expect(!gone.ok && gone.error.code).toBe('conflict');
  });

  it('send now (steer) joins the running turn between two steps, in a new assistant message after it', async () => {
    const held = gate();
    const { hh, s, requests } = await withScript([
      { calls: [{ toolName: 'list', input: { path: '.' } }], hold: held.wait },
      { text: 'also checked b' },
    ]);
    const ended = turnsEnded(hh.svc, s, 1);
    hh.svc.send(s, 'look around');
    await new Promise<void>((resolve) => {
      const off = hh.svc.on((e) => {
        if (e.type === 'message.added' && e.message.role === 'assistant') {
          off();
          resolve();
        }
      });
    });
    const steer = hh.svc.send(s, 'also check b', true);
    expect(steer.ok && steer.value.started).toBe(false);
    held.open();
    await ended;
    expect(requests).toHaveLength(2);
    const roles = requests[1]?.prompt.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(lastUser(requests[1])).toBe('also check b');
    const v = hh.svc.getSession(s);
    expect(v.ok && v.value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(hh.svc.queued.list(s)).toEqual([]);
  });

  it('crash between admit and promote: queued after the restart, promoted exactly once', async () => {
    const dataDir = tempDir('queue-crash-data');
    const root = tempDir('queue-crash-proj');
    try {
      await runAndKill([dataDir, root, 'queued']);
      const scripted = stepModel([{ text: 'answered the second' }]);
      const opened = await AgentService.open({ dataDir, models: () => scripted.model });
      if (!opened.ok) throw new Error(opened.error.message);
      const svc = opened.value;
      const sid = svc.listSessions(svc.listProjects()[0]?.id as string)[0]?.id as string;
      expect(svc.queued.list(sid).map((q) => q.text)).toEqual(['second message']);
      const ended = turnsEnded(svc, sid, 1);
      expect(svc.queued.resume(sid)).toBe(true);
      await ended;
      expect(svc.queued.resume(sid)).toBe(false);
      expect(lastUser(scripted.requests[0])).toBe('second message');
      expect(scripted.requests).toHaveLength(1);
      const users = svc.store
        .messages(sid)
        .filter((m) => m.role === 'user')
        .map((m) => svc.store.messageText(m.id));
      expect(users).toEqual(['crash me', 'second message']);
      await svc.close();
      const again = await AgentService.open({ dataDir });
      if (!again.ok) throw new Error(again.error.message);
      expect(again.value.queued.list(sid)).toEqual([]);
      await again.value.close();
    } finally {
      cleanupTemp(dataDir, root);
    }
  }, 90_000);
});
