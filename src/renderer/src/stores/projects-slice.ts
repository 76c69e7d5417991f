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
      screen: 'chat',
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
    const r = await call('projects.openSample', {});
    if (!r.ok) return get().showError(r.error);
    set({ project: r.value.project, screen: 'chat', error: null, ...NO_PROJECT_STATE });
    writePlace({ root: r.value.project.root, sessionId: null });
    await get().loadSessions();
    await get().selectSession(r.value.session.id);
    // The first-run tour: the sample's marked permission question is asked, as the banner promises.
    await get().replay('sample', undefined, true);
  },
});
