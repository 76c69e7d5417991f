/**
 * The editor tab: Monaco on the open file (loaded on first use, like the review's diff), its edits reported to the
 * files slice; the window's key handler saves (file.save in src/shared/keymap.ts). When the disk moved on under unsaved edits it becomes the merge view: a diff of
 * the disk's text (left, read-only) and the user's (right, still editable), and the user chooses.
 */
import { useEffect, useRef, useState } from 'react';
import type React from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import { useStore } from '../../stores';
import { releaseFocus } from './release-focus';
import { editorTabStop } from './editor-stop';

type MonacoModule = typeof Monaco;

function useMonaco(): MonacoModule | null {
  const [m, setM] = useState<MonacoModule | null>(null);
  useEffect(() => {
    let live = true;
    void import('../permission/monaco').then((mod) => live && setM(mod.monaco));
    return () => {
      live = false;
    };
  }, []);
  return m;
}

function theme(): 'vs' | 'vs-dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs';
}

/** Follow the OS theme while an editor is open (Monaco's theme is global and set at creation otherwise). */
function followTheme(monaco: MonacoModule): () => void {
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const onTheme = (): void => monaco.editor.setTheme(theme());
  media.addEventListener('change', onTheme);
  return () => media.removeEventListener('change', onTheme);
}

/** The plain editor on the open file. */
function Editor({ monaco }: { monaco: MonacoModule }): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const file = useStore((s) => s.file);
  const line = useStore((s) => s.line);
  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const e = monaco.editor.create(box, {
      automaticLayout: true,
      minimap: { enabled: false },
      theme: theme(),
      scrollBeyondLastLine: false,
      // Its hidden input is no Tab stop; the editor's box is (editor-stop.ts).
      tabIndex: -1,
    });
    e.onDidChangeModelContent(() => useStore.getState().editFile(e.getValue()));
    editor.current = e;
    const unstop = editorTabStop(monaco, e, box, 'Editor');
    const unfollow = followTheme(monaco);
    return () => {
      unfollow();
      unstop();
      releaseFocus(box);
      const model = e.getModel();
      e.dispose();
      model?.dispose();
    };
  }, [monaco]);
  // A new file, or a new version of it from disk with no unsaved edits: the model takes the disk's text.
  useEffect(() => {
    const e = editor.current;
    if (!e || !file) return;
    const s = useStore.getState();
    const text = s.edited ?? file.text;
    const model = e.getModel();
    if (model && model.uri.path === `/${file.path}`) {
      if (model.getValue() !== text) model.setValue(text);
      return;
    }
    model?.dispose();
    const uri = monaco.Uri.from({ scheme: 'landfall', path: `/${file.path}` });
    e.setModel(monaco.editor.createModel(text, undefined, uri));
  }, [monaco, file]);
  useEffect(() => {
    const e = editor.current;
    if (!e || !line) return;
    e.revealLineInCenter(line);
    e.setPosition({ lineNumber: line, column: 1 });
  }, [line, file?.path]);
  return <div className="code-editor" ref={host} data-testid="code-editor" />;
}

/** The merge view: the disk's newer text beside the user's unsaved edits. */
function Merge({ monaco }: { monaco: MonacoModule }): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const conflict = useStore((s) => s.conflict);
  const keepMine = useStore((s) => s.keepMine);
  const takeTheirs = useStore((s) => s.takeTheirs);
  useEffect(() => {
    const box = host.current;
    if (!box || !conflict) return;
    const diff = monaco.editor.createDiffEditor(box, {
      automaticLayout: true,
      originalEditable: false,
      renderGutterMenu: false, // not used; its menu re-reads context keys (see review/DiffView.tsx)
      renderSideBySide: box.clientWidth > 560,
      minimap: { enabled: false },
      theme: theme(),
      tabIndex: -1,
    });
    const original = monaco.editor.createModel(conflict.text);
    const modified = monaco.editor.createModel(useStore.getState().edited ?? '');
    diff.setModel({ original, modified });
    const sub = modified.onDidChangeContent(() => useStore.getState().editFile(modified.getValue()));
    const unstop = editorTabStop(monaco, diff.getModifiedEditor(), box, 'Your version (right)');
    const unfollow = followTheme(monaco);
    return () => {
      unfollow();
      unstop();
      releaseFocus(box);
      sub.dispose();
      diff.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [monaco, conflict]);
  return (
    <div className="merge" data-testid="merge-view">
      <div className="merge-bar" role="alert">
        <span>
          <strong>{conflict?.path}</strong> changed on disk while you had unsaved edits. Left: the file now. Right:
          yours.
        </span>
        <button data-testid="keep-mine" onClick={() => void keepMine()}>
          Keep mine
        </button>
        <button data-testid="take-theirs" onClick={() => takeTheirs()}>
          Take the file as it is now
        </button>
      </div>
      <div className="code-editor" ref={host} />
    </div>
  );
}

export function CodeEditor(): React.JSX.Element {
  const monaco = useMonaco();
  const conflict = useStore((s) => s.conflict !== null);
  if (!monaco) return <div className="code-editor muted">Loading the editor…</div>;
  return conflict ? <Merge monaco={monaco} /> : <Editor monaco={monaco} />;
}
