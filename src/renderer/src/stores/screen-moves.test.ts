/**
 * A slow open does not take the user away from the screen they went to meanwhile: Settings clicked while
 * `projects.open` is under way stays on Settings when the project arrives (the project is open all the same).
 * Without a move, the open shows the chat as before. The transport's answers are released by the test.
 */
import { describe, expect, test } from 'vitest';
import { createAppStore } from './index';
import { heldTransport } from './testing/held-transport';

const { pending, take } = heldTransport();

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
