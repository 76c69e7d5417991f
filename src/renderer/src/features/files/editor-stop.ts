/**
 * Keyboard reach of an editable Monaco editor without its invisible input as a Tab stop (issue 17 §5). Monaco types
 * through an input it hides (a 0 px wide EditContext element, or a 1 px textarea), created with `tabIndex: -1` by
 * the caller; the editor's host element is the Tab stop instead: visible, with a focus ring and a label that says
 * how to go in and out. Enter (or F2) on the host puts the caret in the editor; Escape in the editor — when no
 * suggestion, find or rename widget is open and there is one cursor — gives focus back to the host, from where Tab
 * moves on. Inside the editor Tab indents, as in any code editor. Returns the function that undoes it.
 */
import type * as Monaco from 'monaco-editor/editor/editor.api';

/** The Monaco contexts in which Escape belongs to the editor (closing a widget, dropping extra cursors). */
const ESCAPE_IS_MONACOS =
  'suggestWidgetVisible || findWidgetVisible || parameterHintsVisible || renameInputVisible || inSnippetMode || editorHasMultipleSelections';

export function editorTabStop(
  monaco: typeof Monaco,
  editor: Monaco.editor.IStandaloneCodeEditor,
  host: HTMLElement,
  label: string,
): () => void {
  host.tabIndex = 0;
  host.setAttribute('role', 'group');
  host.setAttribute('aria-label', `${label} — Enter to edit, Escape to leave`);
  host.classList.add('editor-tab-stop');
  const onKey = (e: KeyboardEvent): void => {
    if (e.target !== host || (e.key !== 'Enter' && e.key !== 'F2')) return;
    e.preventDefault();
    editor.focus();
  };
  host.addEventListener('keydown', onKey);
  const leave = editor.addAction({
    id: 'landfall.leaveEditor',
    label: 'Leave the editor (Tab then moves on)',
    keybindings: [monaco.KeyCode.Escape],
    precondition: `editorTextFocus && !(${ESCAPE_IS_MONACOS})`,
    run: () => host.focus(),
  });
  return () => {
    leave.dispose();
    host.removeEventListener('keydown', onKey);
    host.classList.remove('editor-tab-stop');
  };
}
