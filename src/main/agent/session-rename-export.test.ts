/**
 * Two session-facade rules on a real service: a rename is refused (`busy`) while a turn runs and allowed once it
 * ended; a session exported while reverted carries only what is live (the reverted turn is left out and counted in
 * `leftOut`), so importing it does not bring the reverted turn back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { harness, scripted, untilAborted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('renameSession', () => {
  it('answers busy while a turn runs and leaves the title; renames once the turn ended', async () => {
    h = await harness();
    const s = h.newSession('before');
    const turn = h.svc.runWithModel(s, untilAborted(), 'go');
    await expect.poll(() => h?.svc.isBusy(s)).toBe(true);
    const r = h.svc.renameSession(s, 'during');
    expect(!r.ok && r.error.code).toBe('busy');
    expect(h.svc.store.getSession(s)?.title).toBe('before');
    h.svc.stop(s);
    await turn;
    const after = h.svc.renameSession(s, 'after');
    expect(after.ok && after.value.title).toBe('after');
  });
});

describe('export while reverted', () => {
  it('exports only the live turns (leftOut says so); the import has no reverted turn and no boundary', async () => {
    h = await harness();
    const s = h.newSession('two turns');
    const write = (content: string) =>
      scripted([[{ callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content } }]]);
    expect((await h.svc.runWithModel(s, write('one\n'), 'first')).ok).toBe(true);
    expect((await h.svc.runWithModel(s, write('two\n'), 'second')).ok).toBe(true);
    const full = h.svc.exportSession(s);
    expect(full.ok && [full.value.messages.length, full.value.leftOut]).toEqual([4, undefined]);
    const undone = await h.svc.undo(s);
    expect(undone.ok && undone.value.text).toBe('second');

    const doc = h.svc.exportSession(s);
    if (!doc.ok) throw new Error(doc.error.message);
    const reverted = full.ok ? full.value.messages.slice(2) : [];
    expect(doc.value.messages.map((m) => m.id)).toEqual(
      full.ok ? full.value.messages.slice(0, 2).map((m) => m.id) : [],
    );
    expect(doc.value.leftOut).toEqual({
      reason: 'reverted',
      messages: 2,
      parts: reverted.reduce((n, m) => n + m.parts.length, 0),
    });
    expect(doc.value.session.revert).toBeUndefined();

    const imported = h.svc.importSession(h.projectId, JSON.stringify(doc.value));
    if (!imported.ok) throw new Error(imported.error.message);
    const view = h.svc.getSession(imported.value.id);
    if (!view.ok) throw new Error(view.error.message);
    expect(view.value.session.revert).toBeUndefined();
    expect(
      view.value.messages.map((m) => [m.role, m.role === 'user' ? h?.svc.store.messageText(m.id) : m.parts.length]),
    ).toEqual([
      ['user', 'first'],
      ['assistant', full.ok ? full.value.messages[1]?.parts.length : -1],
    ]);
    // The source session is untouched by the export: still reverted, still holding the reverted turn.
    const source = h.svc.getSession(s);
    expect(source.ok && [source.value.messages.length, !!source.value.session.revert]).toEqual([4, true]);
  });
});
