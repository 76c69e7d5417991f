/**
 * Layout slice: the window width's arrangement (layout.ts), the pane sizes the user dragged (remembered in the
 * browser's storage), and the tab shown when panes collapse to tabs.
 */
import type { LayoutSlice, Slice } from './types';
import { clampSizes, defaultSizes, layoutMode, readSizes, STORAGE_KEY } from './layout';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const createLayoutSlice: Slice<LayoutSlice> = (set, get) => {
  const width = typeof window === 'undefined' ? 1440 : window.innerWidth;
  const stored = readSizes(storage()?.getItem(STORAGE_KEY) ?? null);
  return {
    windowWidth: width,
    layout: layoutMode(width),
    paneSizes: stored ? clampSizes(stored, width) : defaultSizes(width),
    tab: 'chat',
    setWindowWidth(w) {
      const saved = readSizes(storage()?.getItem(STORAGE_KEY) ?? null) ?? defaultSizes(w);
      set({ windowWidth: w, layout: layoutMode(w), paneSizes: clampSizes(saved, w) });
    },
    resizePane(pane, px) {
      const sizes = clampSizes({ ...get().paneSizes, [pane]: px }, get().windowWidth);
      set({ paneSizes: sizes });
      storage()?.setItem(STORAGE_KEY, JSON.stringify(sizes));
    },
    setTab(tab) {
      set({ tab });
    },
  };
};
