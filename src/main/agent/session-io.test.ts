/**
 * Export / import edge cases (session-io.ts) on a real service: a tool part exported while it was running comes
 * back interrupted (never a forever-spinning tool), the user's text part keeps the `<messageId>_text` id, a
 * document from a newer export version is refused with a clear message, and a refused import writes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { harness, scripted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function exported(
  x: Harness,
): Promise<{ session: string; doc: Record<string, unknown> & { messages: { id: string; parts: Part[] }[] } }> {
  const session = x.newSession('io');
  const r = await x.svc.runWithModel(
    session,
    scripted([[{ callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } }]]),
    'make a.txt',
  );
  if (!r.ok) throw new Error(r.error.message);
  const doc = x.svc.exportSession(session);
  if (!doc.ok) throw new Error(doc.error.message);
  return { session, doc: JSON.parse(JSON.stringify(doc.value)) };
}

describe('session export / import', () => {
  it('a tool part exported while running is imported as error: interrupted; the user text part keeps its id form', async () => {
    h = await harness();
    const { doc } = await exported(h);
    const tool = doc.messages[1]?.parts.find((p) => p.type === 'tool');
    if (tool?.type !== 'tool') throw new Error('no tool part');
    Object.assign(tool, { state: 'running', output: undefined, error: undefined });
    const imported = h.svc.importSession(h.projectId, doc);
    if (!imported.ok) throw new Error(imported.error.message);
    const view = h.svc.getSession(imported.value.id);
    if (!view.ok) throw new Error(view.error.message);
    const back = view.value.messages[1]?.parts.find((p) => p.type === 'tool');
    expect(back?.type === 'tool' && [back.state, back.error?.code]).toEqual(['error', 'interrupted']);
    const user = view.value.messages[0];
    expect(user?.parts.map((p) => p.id)).toEqual([`${user?.id}_text`]);
  });

  it('a document from a newer export version is refused by name, and nothing is written', async () => {
    h = await harness();
    const { doc } = await exported(h);
    const before = h.svc.listSessions(h.projectId).length;
    const r = h.svc.importSession(h.projectId, { ...doc, version: 2 });
    expect(!r.ok && r.error.code).toBe('invalid_input');
    expect(!r.ok && r.error.message).toMatch(/newer Landfall/);
    const broken = h.svc.importSession(h.projectId, { ...doc, messages: [...doc.messages, { bogus: true }] });
    expect(!broken.ok && broken.error.code).toBe('invalid_input');
    expect(h.svc.listSessions(h.projectId)).toHaveLength(before);
  });
});
