/**
 * The window's layout rules (pure): which arrangement a width gets, and pane sizes kept within bounds.
 *   - wide (≥ 1000 px): sessions | chat | review side by side, both dividers draggable;
 *   - tabs (600–999 px): the sessions column, and chat / review as tabs beside it;
 *   - phone (< 600 px, e.g. a tablet or phone reaching the web host): one column, sessions / chat / review as tabs.
 * Sizes are pixels, remembered in the browser's storage (`landfall.layout`), and clamped so the chat keeps at
 * least MIN_MAIN px and nothing scrolls sideways.
 */

export type LayoutMode = 'wide' | 'tabs' | 'phone';
export type PaneTab = 'sessions' | 'chat' | 'review';

export interface PaneSizes {
  sidebar: number;
  review: number;
}

export const WIDE_MIN = 1000;
export const PHONE_MAX = 600;
export const MIN_MAIN = 360;
export const DIVIDER = 6;
const SIDEBAR = { min: 160, max: 420 };
const REVIEW_MIN = 320;
export const STORAGE_KEY = 'landfall.layout';

/** The arrangement for a window `width` px wide. */
export function layoutMode(width: number): LayoutMode {
  if (width >= WIDE_MIN) return 'wide';
  return width >= PHONE_MAX ? 'tabs' : 'phone';
}

/**
 * Default sizes for a window `width` px wide: a 240 px sidebar and a review pane of half the window (720 px at
 * 1440, where the review toolbar fits on one row; review.css keeps it on one row from 700 px).
 */
export function defaultSizes(width: number): PaneSizes {
  return clampSizes({ sidebar: 240, review: Math.round(width * 0.5) }, width);
}

/** `sizes` within bounds for `width`: sidebar 160–420 px, review ≥ 320 px, the chat ≥ MIN_MAIN px. */
export function clampSizes(sizes: PaneSizes, width: number): PaneSizes {
  const sidebar = Math.round(Math.min(SIDEBAR.max, Math.max(SIDEBAR.min, sizes.sidebar)));
  const room = width - sidebar - MIN_MAIN - 2 * DIVIDER;
  const review = Math.round(Math.max(Math.min(REVIEW_MIN, room), Math.min(room, Math.max(REVIEW_MIN, sizes.review))));
  return { sidebar, review };
}

/** The sizes stored by an earlier window, or null when none (or unreadable). */
export function readSizes(raw: string | null): PaneSizes | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<PaneSizes>;
    return typeof v.sidebar === 'number' && typeof v.review === 'number' && v.sidebar > 0 && v.review > 0
      ? { sidebar: v.sidebar, review: v.review }
      : null;
  } catch {
    return null;
  }
}
