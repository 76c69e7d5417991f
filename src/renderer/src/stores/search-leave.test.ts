/**
 * The session list's search, the running dots after a load, and leaving a project with unsaved editor edits —
 * counted at the transport (the `window.landfall` door rpc/ uses). Answers are parsed with the contract's own
 * output schemas and released by the test (deferred), so an older search answer can arrive after a newer one.
 */
import { describe, expect, test } from 'vitest';
import { fail } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { heldTransport } from './testing/held-transport';
import { createAppStore } from './index';
import { runningFrom } from './sessions-slice';

const { pending, take } = heldTransport();

const PROJECT = { id: 'prj_a', root: '/work/a', name: 'a', lastOpened: 1 };
const hit = (sessionId: string, match: string) => ({
  sessionId,
  title: `title ${sessionId}`,
  updated: 1,
  matches: [{ messageId: 'm', partId: `p_${sessionId}`, role: 'user', snippet: { before: '', match, after: '' } }],
  more: 0,
});

describe('session search', () => {
  test('an older answer arriving after a newer one is dropped; an empty query shows the list', async () => {
    pending.length = 0;
    const store = createAppStore();
    store.setState({ project: PROJECT });
    const first = store.getState().setSearch('sho');
    const second = store.getState().setSearch('shout');
    const older = await take('sessions.search');
    const newer = await take('sessions.search');
    expect([older.input, newer.input]).toEqual([
      { projectId: 'prj_a', query: 'sho' },
      { projectId: 'prj_a', query: 'shout' },
    ]);
    newer.answer([hit('ses_new', 'shout')]);
    await second;
    older.answer([hit('ses_old', 'sho')]);
    await first;
    expect(store.getState().searchHits?.map((h) => h.sessionId)).toEqual(['ses_new']);
    expect(store.getState().searchQuery).toBe('shout');
    await store.getState().setSearch('   ');
    expect(store.getState().searchHits).toBeNull();
    expect(pending).toEqual([]);
  });
});

describe('running dots', () => {
  test('exactly the sessions main lists; a start time this window saw is kept', () => {
    const turns = [
      { sessionId: 'ses_a', since: 100, elsewhere: false },
      { sessionId: 'ses_b', since: 200, elsewhere: true },
    ];
    expect(runningFrom(turns, { ses_a: 50, ses_gone: 10 })).toEqual({ ses_a: 50, ses_b: 200 });
    expect(runningFrom([], { ses_a: 50 })).toEqual({});
  });

  test('loading the sessions asks sessions.running and marks every listed session, not only the open one', async () => {
    pending.length = 0;
    const store = createAppStore();
    store.setState({ project: PROJECT, sessionId: 'ses_open', running: { ses_open: 5 } });
    const loading = store.getState().loadSessions();
    (await take('sessions.list')).answer([]);
    (await take('sessions.running')).answer([{ sessionId: 'ses_other', since: 7, elsewhere: true }]);
    await loading;
    expect(store.getState().running).toEqual({ ses_other: 7 });
  });
});

describe('leaving a project with unsaved edits', () => {
  const FILE = { path: 'src/a.js', text: 'a\n', version: 'v1', encoding: 'utf-8', eol: 'lf' as const };

  function edited() {
    pending.length = 0;
    const store = createAppStore();
    store.setState({ project: PROJECT, file: FILE, edited: 'a\nmine\n' });
    return store;
  }

  test('opening another project asks first: nothing is sent; Cancel keeps the edits', async () => {
    const store = edited();
    expect(await store.getState().openProject('/work/b')).toBe(false);
    expect(store.getState().leaving).toEqual({ kind: 'project', root: '/work/b' });
    expect(pending).toEqual([]);
    await store.getState().resolveLeave('cancel');
    expect(store.getState()).toMatchObject({ leaving: null, edited: 'a\nmine\n', project: PROJECT });
    expect(pending).toEqual([]);
  });

  test('Save sends files.save on the version the edits were made on, then opens the project', async () => {
    const store = edited();
    await store.getState().openProject('/work/b');
    const done = store.getState().resolveLeave('save');
    const save = await take('files.save');
    expect(save.input).toEqual({ projectId: 'prj_a', path: 'src/a.js', text: 'a\nmine\n', baseVersion: 'v1' });
    save.answer({ path: 'src/a.js', version: 'v2' });
    const open = await take('projects.open');
    expect(open.input).toEqual({ root: '/work/b' });
    open.answer({ id: 'prj_b', root: '/work/b', name: 'b', lastOpened: 2 });
    (await take('sessions.list')).answer([]);
    (await take('sessions.running')).answer([]);
    (await take('projects.list')).answer([]);
    await done;
    expect(store.getState()).toMatchObject({ leaving: null, edited: null, file: null });
    expect(store.getState().project?.id).toBe('prj_b');
  });

  test('a save that does not land (the disk moved) stays, in the merge view; no project is opened', async () => {
    const store = edited();
    await store.getState().openProject('/work/b');
    const done = store.getState().resolveLeave('save');
    (await take('files.save')).refuse(
      fail('stale', 'src/a.js changed on disk.', 'Merge.', { version: 'v9', text: 'theirs\n' }) as Result<never>,
    );
    await done;
    expect(store.getState()).toMatchObject({ leaving: null, edited: 'a\nmine\n', project: PROJECT });
    expect(store.getState().conflict?.text).toBe('theirs\n');
    expect(pending.filter((p) => p.name === 'projects.open')).toEqual([]);
  });

  test('Discard drops the edits and opens the project; going back to the open project never asks', async () => {
    const store = edited();
    expect(await store.getState().openProject('/work/a')).toBe(true);
    expect(store.getState()).toMatchObject({ leaving: null, edited: 'a\nmine\n', screen: 'chat' });
    expect(pending).toEqual([]);
    await store.getState().openProject('/work/b');
    const done = store.getState().resolveLeave('discard');
    (await take('projects.open')).answer({ id: 'prj_b', root: '/work/b', name: 'b', lastOpened: 2 });
    (await take('sessions.list')).answer([]);
    (await take('sessions.running')).answer([]);
    (await take('projects.list')).answer([]);
    await done;
    expect(store.getState()).toMatchObject({ edited: null, file: null });
    expect(store.getState().project?.id).toBe('prj_b');
  });
});
