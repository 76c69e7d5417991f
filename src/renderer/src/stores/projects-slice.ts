/** Projects slice: the recent list, the open project, opening by path, by dialog, or the bundled sample. */
import { call } from '../rpc';
import type { ProjectsSlice, Slice } from './types';
import { writePlace } from './place';

/** What belongs to the project being left: its file view and the session search (reset on every switch). */
const NO_PROJECT_STATE = {
  tree: null,
  treeFailed: false,
  file: null,
  edited: null,
  conflict: null,
  searchQuery: '',
  searchHits: null,
} as const;

/**
 * The screen an open shows when it is done: the chat, unless the user moved to another screen while it was under
 * way (`screenMoves` changed since `before`) — then nothing, so a click on Settings during a slow open is kept.
 */
export function stayIfMoved(now: number, before: number): { screen?: 'chat' } {
  return now === before ? { screen: 'chat' } : {};
}

export const createProjectsSlice: Slice<ProjectsSlice> = (set, get) => ({
  projects: [],
  project: null,
  async loadProjects() {
    const r = await call('projects.list', {});
    if (r.ok) set({ projects: r.value });
    else get().showError(r.error);
  },
  async openProject(root) {
    // Back to the open project with unsaved edits: nothing to reload, nothing to ask.
    if (get().project?.root === root && get().edited !== null) {
      set({ screen: 'chat' });
      return true;
    }
    if (!get().mayLeave({ kind: 'project', root })) return false;
    const moves = get().screenMoves;
    const r = await call('projects.open', { root });
    if (!r.ok) {
      get().showError(r.error);
      return false;
    }
    set({
      project: r.value,
      sessionId: null,
      messages: [],
      asks: [],
      busy: false,
      ...stayIfMoved(get().screenMoves, moves),
      error: null,
      ...NO_PROJECT_STATE,
    });
    writePlace({ root: r.value.root, sessionId: null });
    void get().openReview(null);
    await Promise.all([get().loadSessions(), get().loadProjects()]);
    return true;
  },
  async pickFolder() {
    const r = await call('projects.pickFolder', {});
    if (!r.ok) return get().showError(r.error);
    if (r.value.root) await get().openProject(r.value.root);
  },
  async openSample() {
    if (!get().mayLeave({ kind: 'sample' })) return;
    const moves = get().screenMoves;
    const r = await call('projects.openSample', {});
    if (!r.ok) return get().showError(r.error);
    set({ project: r.value.project, ...stayIfMoved(get().screenMoves, moves), error: null, ...NO_PROJECT_STATE });
    writePlace({ root: r.value.project.root, sessionId: null });
    await get().loadSessions();
    const chosen = get().screenMoves === moves ? undefined : get().screen;
    await get().selectSession(r.value.session.id);
    if (chosen) set({ screen: chosen }); // the screen the user went to while the sample opened stays
    // The first-run tour: the sample's marked permission question is asked, as the banner promises.
    await get().replay('sample', undefined, true);
  },
});
