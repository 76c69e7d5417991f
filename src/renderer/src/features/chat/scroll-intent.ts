/**
 * What a key press in the message list asks for: which way it scrolls, and whether it belongs to a control inside
 * the list (a question card's text field, a button) instead. The list follows the bottom by what the user asked
 * for, never by when a scroll event arrives (see MessageList).
 */

/**
 * Which way a key press scrolls a focused list: -1 up (ArrowUp, PageUp, Home, Shift+Space), 1 down (ArrowDown,
 * PageDown, End, Space), 0 any other key. Modifier-held arrows (Alt/Ctrl/Meta) belong to shortcuts, not scrolling.
 */
export function keyDirection(
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'>,
): -1 | 0 | 1 {
  if (e.altKey || e.ctrlKey || e.metaKey) return 0;
  switch (e.key) {
    case 'ArrowUp':
    case 'PageUp':
    case 'Home':
      return -1;
    case 'ArrowDown':
    case 'PageDown':
    case 'End':
      return 1;
    case ' ':
      return e.shiftKey ? -1 : 1;
    default:
      return 0;
  }
}

/** Whether a key press belongs to a control (a text field, a button, an editor) rather than to the list's scrolling. */
export function controlTarget(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || t.closest('input, textarea, select, button, [role=textbox], .monaco-editor') !== null;
}
