/**
 * Review shortcuts, active only while focus is inside the review panel — so Ctrl+N typed in the chat input never
 * rejects a hunk, and nothing here ever moves focus (fixtures/bugs/README.md B41):
 * Ctrl/Cmd+Y keep hunk · Ctrl/Cmd+N reject hunk · Alt+↓/↑ next/previous change · Ctrl/Cmd+Enter keep all ·
 * Ctrl/Cmd+Backspace reject all.
 */
import type { Store } from '../../stores';

type Actions = Pick<Store, 'decideHunk' | 'decideAll' | 'nextHunk'>;

/** Handle one keydown from inside the panel; true when it was a review shortcut (then default and bubbling stop). */
export function handleReviewKey(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
  s: Actions,
): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey && !e.shiftKey) {
    if (key === 'y') return (void s.decideHunk('accept'), true);
    if (key === 'n') return (void s.decideHunk('reject'), true);
    if (key === 'Enter') return (void s.decideAll('accept'), true);
    if (key === 'Backspace') return (void s.decideAll('reject'), true);
  }
  if (e.altKey && !mod && !e.shiftKey) {
    if (key === 'ArrowDown') return (s.nextHunk(1), true);
    if (key === 'ArrowUp') return (s.nextHunk(-1), true);
  }
  return false;
}
