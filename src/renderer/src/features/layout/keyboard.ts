/**
 * Window-wide shortcuts: Ctrl/Cmd+Shift+P opens the palette, Ctrl/Cmd+P quick-opens a file, Ctrl/Cmd+S saves the
 * open file; Esc twice (while working) stops the turn.
 */
import { useStore } from '../../stores';

/** Installs the listener; returns the function that removes it. */
export function installShortcuts(target: Window = window): () => void {
  const onKey = (e: KeyboardEvent): void => {
    const s = useStore.getState();
    if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === 'p') {
      e.preventDefault();
      s.setPalette(!s.paletteOpen);
    } else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'p' && s.project) {
      // Quick open (the browser's print is not what a user of the workbench means here).
      e.preventDefault();
      s.setQuickOpen(!s.quickOpen);
    } else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 's' && s.file) {
      e.preventDefault();
      void s.saveFile();
    } else if (e.key === 'Escape' && !s.paletteOpen && !s.quickOpen) {
      void s.escape();
    }
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
