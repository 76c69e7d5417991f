/**
 * The renderer's one store, combined from slices per concern (zustand's slices pattern; DESIGN §10): app, projects,
 * sessions, chat, history (undo / redo / revert / unrevert and their notices), review (timeline, diff, decisions),
 * settings. Components read with `useStore(selector)` and call actions; they never call main themselves, and only
 * src/renderer/src/rpc touches the transport. Middleware, if any, goes here on the combined store, never in a
 * slice; no slice calls main from its initialiser (boot wires events and loads the first screen).
 */
import { create } from 'zustand';
import type { Store } from './types';
import { createAppSlice } from './app-slice';
import { createProjectsSlice } from './projects-slice';
import { createSessionsSlice } from './sessions-slice';
import { createSearchSlice } from './search-slice';
import { createChatSlice } from './chat-slice';
import { createCompactionSlice } from './compaction-slice';
import { createHistorySlice } from './history-slice';
import { createReviewSlice } from './review-slice';
import { createSettingsSlice } from './settings-slice';
import { createLayoutSlice } from './layout-slice';
import { createFilesSlice } from './files-slice';
import { createContextSlice } from './context-slice';
import { createTrustSlice } from './trust-slice';
import { createMcpSlice } from './mcp-slice';
import { createTalkSlice } from './talk-slice';
import { createLoopSlice } from './loop-slice';
import { createLeaveSlice } from './leave-slice';
import { createProgressSlice } from './progress-slice';

/** A fresh store (each with its own caches and timers, held in the slices' closures). The app uses `useStore`. */
export function createAppStore() {
  return create<Store>()((...a) => ({
    ...createAppSlice(...a),
    ...createProjectsSlice(...a),
    ...createSessionsSlice(...a),
    ...createSearchSlice(...a),
    ...createChatSlice(...a),
    ...createCompactionSlice(...a),
    ...createHistorySlice(...a),
    ...createReviewSlice(...a),
    ...createSettingsSlice(...a),
    ...createLayoutSlice(...a),
    ...createFilesSlice(...a),
    ...createContextSlice(...a),
    ...createTrustSlice(...a),
    ...createMcpSlice(...a),
    ...createTalkSlice(...a),
    ...createLoopSlice(...a),
    ...createLeaveSlice(...a),
    ...createProgressSlice(...a),
  }));
}

export const useStore = createAppStore();

export type { Store, Screen } from './types';
