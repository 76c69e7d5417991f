/** App slice: which screen shows, the palette, the error banner, and boot (event wiring + first load). */
import { call } from '../rpc';
import type { AppSlice, Slice } from './types';
import { connectEvents } from './events';

export const createAppSlice: Slice<AppSlice> = (set, get) => {
  let booted = false;
  return {
    info: null,
    screen: 'projects',
    paletteOpen: false,
    error: null,
    async boot() {
      // StrictMode runs effects twice in development; events must be wired exactly once.
      if (booted) return;
      booted = true;
      connectEvents(get, set);
      const info = await call('app.info', {});
      if (!info.ok) return get().showError(info.error);
      set({ info: info.value });
      await Promise.all([get().loadProjects(), get().loadSettings(), get().loadTrust()]);
    },
    setScreen(screen) {
      set({ screen, paletteOpen: false });
    },
    setPalette(open) {
      set({ paletteOpen: open });
    },
    showError(error) {
      set({ error });
    },
  };
};
