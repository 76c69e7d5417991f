/**
 * The renderer's store: one zustand store combined from slices per concern (zustand's slices pattern).
 * Components read with `useStore(selector)` and call actions; they never call main themselves.
 */
import { create } from 'zustand';
import type { Store } from './types';
import { createAppSlice } from './app-slice';
import { createProjectsSlice } from './projects-slice';
import { createSessionsSlice } from './sessions-slice';
import { createChatSlice } from './chat-slice';
import { createHistorySlice } from './history-slice';
import { createSettingsSlice } from './settings-slice';

export const useStore = create<Store>()((...a) => ({
  ...createAppSlice(...a),
  ...createProjectsSlice(...a),
  ...createSessionsSlice(...a),
  ...createChatSlice(...a),
  ...createHistorySlice(...a),
  ...createSettingsSlice(...a),
}));

export type { Store, Screen } from './types';
