/**
 * The files slice's tree against a transport whose answers the test releases: a listing superseded by a project
 * switch never leaves the Files pane at "Loading files…", and never shows the old project's files.
 */
import { describe, expect, test } from 'vitest';
import { createAppStore } from './index';
import { heldTransport } from './testing/held-transport';

const { pending, take } = heldTransport();

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

const A = { id: 'prj_a', root: '/work/a', name: 'a', lastOpened: 1 };
const B = { id: 'prj_b', root: '/work/b', name: 'b', lastOpened: 2 };

describe('files tree', () => {
  test('an answer for a project no longer open is dropped and the open project is listed instead', async () => {
    pending.length = 0;
    const store = createAppStore();
    store.setState({ project: A });
    store.getState().setRightPane('files');
    const forA = await take('files.tree');
    expect(forA.input).toEqual({ projectId: 'prj_a' });
    // Project B opens while A's listing is under way (openProject resets the tree).
    store.setState({ project: B, tree: null });
    forA.answer({ files: ['a.txt'], truncated: false });
    await settle();
    expect(store.getState().tree).toBeNull();
    const forB = await take('files.tree');
    expect(forB.input).toEqual({ projectId: 'prj_b' });
    forB.answer({ files: ['b.txt'], truncated: false });
    await settle();
    expect(store.getState().tree).toEqual(['b.txt']);
  });

  test('asking for the tree again while a listing of the same project is under way sends no second call', async () => {
    pending.length = 0;
    const store = createAppStore();
    store.setState({ project: A });
    store.getState().setRightPane('files');
    store.getState().ensureTree();
    store.getState().setQuickOpen(true);
    const forA = await take('files.tree');
    await settle();
    expect(pending.filter((p) => p.name === 'files.tree')).toHaveLength(0);
    forA.answer({ files: ['a.txt'], truncated: false });
    await settle();
    expect(store.getState().tree).toEqual(['a.txt']);
  });
});
