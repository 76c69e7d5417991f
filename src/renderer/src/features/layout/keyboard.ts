/**
 * The window's one key handler: every key of the key table (src/shared/keymap.ts) is heard here, in the capture
 * phase, so a binding works wherever the focus is — also inside Monaco's read-only diff editor, which would
 * otherwise take Alt+↓ or Ctrl+Y for itself. Which command a press runs is decided by `pickCommand`
 * (stores/commands.ts) from where the focus is: in the review panel or not, typing or not. Nothing here moves
 * focus (fixtures/bugs/README.md B41).
 */
import { useStore } from '../../stores';
import { pickCommand, runCommand, type KeyContext } from '../../stores/commands';

/** Marks the review panel: review bindings are heard only inside it. */
export const REVIEW_SCOPE = 'data-key-scope';
/** Marks the host of a read-only Monaco editor: focus inside it is not typing. */
export const READONLY_EDITOR = 'data-readonly-editor';

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'password', 'number', 'tel', '']);

/** True when `el` takes text: a text field, a select, something content-editable, or an editable Monaco editor. */
export function isTyping(el: Element | null): boolean {
  if (!el) return false;
  if (el.closest(`[${READONLY_EDITOR}]`)) return false;
  if (el.closest('.monaco-editor')) return true;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

/** Where the focus is, for `pickCommand`. */
function contextOf(target: EventTarget | null): KeyContext {
  const el = target instanceof Element ? target : null;
  const s = useStore.getState();
  return {
    inReview: Boolean(el?.closest(`[${REVIEW_SCOPE}="review"]`)),
    typing: isTyping(el),
    overlay: s.paletteOpen || s.quickOpen,
  };
}

/** Installs the listener on `target` (capture phase); returns the function that removes it. */
export function installShortcuts(target: Window = window): () => void {
  const onKey = (e: KeyboardEvent): void => {
    if (e.isComposing) return;
    const s = useStore.getState();
    const hit = pickCommand(e, contextOf(e.target), s);
    if (!hit) return;
    if (hit.chord.twice) {
      // Esc Esc: counted by the chat slice; Esc keeps its own meaning (close a menu, a find box) for the first press.
      void s.escape();
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    runCommand(s, hit.id);
  };
  target.addEventListener('keydown', onKey, true);
  return () => target.removeEventListener('keydown', onKey, true);
}
