/** Window-wide shortcuts: Ctrl/Cmd+Shift+P opens the palette; Esc twice (while working) stops the turn. */
import { useStore } from '../../stores';

/** Installs the listener; returns the function that removes it. */
export function installShortcuts(target: Window = window): () => void {
  const onKey = (e: KeyboardEvent): void => {
    const s = useStore.getState();
    if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === 'p') {
      e.preventDefault();
      s.setPalette(!s.paletteOpen);
    } else if (e.key === 'Escape' && !s.paletteOpen) {
      void s.escape();
    }
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
