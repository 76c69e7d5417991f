/**
 * A slow open does not take the user away from the screen they went to meanwhile: Settings clicked while
 * `projects.open` is under way stays on Settings when the project arrives (the project is open all the same).
 * Without a move, the open shows the chat as before. The transport's answers are released by the test.
 */
import { describe, expect, test } from 'vitest';
import { CALL_NAMES, EVENT_NAMES, calls as contract } from '../../../shared/contract';
import type { CallName, LandfallApi } from '../../../shared/contract';
import { ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { createAppStore } from './index';

interface Pending {
  name: CallName;
  answer(value: unknown): void;
}

const pending: Pending[] = [];
const api = {
  calls: Object.fromEntries(
    CALL_NAMES.map((name) => [
      name,
      () =>
        new Promise<Result<unknown>>((resolve) =>
          pending.push({ name, answer: (value) => resolve(ok(contract[name].output.parse(value))) }),
        ),
    ]),
  ),
  events: Object.fromEntries(EVENT_NAMES.map((n) => [n, () => () => {}])),
} as unknown as LandfallApi;
(globalThis as { window?: unknown }).window = { landfall: api };
(globalThis as { localStorage?: unknown }).localStorage ??= {
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
};

async function take(name: CallName): Promise<Pending> {
  for (let i = 0; i < 50; i++) {
    const at = pending.findIndex((p) => p.name === name);
    if (at >= 0) return pending.splice(at, 1)[0] as Pending;
    await Promise.resolve();
  }
  throw new Error(`no ${name} call was sent (sent: ${pending.map((p) => p.name).join(', ')})`);
}

const A = { id: 'prj_a', root: '/work/a', name: 'a', lastOpened: 1 };

describe('a slow project open and the screen the user chose', () => {
  test('Settings clicked while the project opens stays on Settings; the project is open', async () => {
    pending.length = 0;
    const store = createAppStore();
    void store.getState().openProject(A.root);
    const open = await take('projects.open');
    store.getState().setScreen('settings');
    open.answer(A);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(store.getState().screen).toBe('settings');
    expect(store.getState().project?.id).toBe('prj_a');
  });

  test('without a move the open shows the chat', async () => {
    pending.length = 0;
    const store = createAppStore();
    void store.getState().openProject(A.root);
    (await take('projects.open')).answer(A);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(store.getState().screen).toBe('chat');
  });
});
