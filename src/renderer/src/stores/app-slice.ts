/** App slice: which screen shows, the palette, the error banner, and boot (event wiring + first load). */
import { call } from '../rpc';
import type { AppSlice, Slice } from './types';
import { connectEvents } from './events';
import { connectProgress } from './progress-slice';
import { readPlace } from './place';
import type { Store } from './types';

/**
 * After a reload: reopen the project and the session this window had open (stores/place.ts), when they still
 * exist. A project folder that is gone, or a deleted session, leaves the picker or the session list as usual.
 */
async function returnToPlace(get: () => Store): Promise<void> {
  const place = readPlace();
  if (!place.root || get().project) return;
  if (!get().projects.some((p) => p.root === place.root)) return;
  if (!(await get().openProject(place.root))) return;
  if (place.sessionId && get().sessions.some((s) => s.id === place.sessionId))
    await get().selectSession(place.sessionId);
}

export const createAppSlice: Slice<AppSlice> = (set, get) => {
  let booted = false;
  return {
    info: null,
    screen: 'projects',
    paletteOpen: false,
    screenMoves: 0,
    error: null,
    async boot() {
      // StrictMode runs effects twice in development; events must be wired exactly once.
      if (booted) return;
      booted = true;
      connectEvents(get, set);
      connectProgress(get);
      const info = await call('app.info', {});
      if (!info.ok) return get().showError(info.error);
      set({ info: info.value });
      await Promise.all([get().loadProjects(), get().loadSettings(), get().loadTrust()]);
      await returnToPlace(get);
    },
    setScreen(screen) {
      set({ screen, paletteOpen: false, screenMoves: get().screenMoves + 1 });
    },
    setPalette(open) {
      set({ paletteOpen: open });
    },
    showError(error) {
      set({ error });
    },
  };
};
