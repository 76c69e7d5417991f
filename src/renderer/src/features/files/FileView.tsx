/** The file pane: the tree beside the editor tab of the open file, with its state and Save. */
import type React from 'react';
import { useStore } from '../../stores';
import { FileTree } from './FileTree';
import { CodeEditor } from './CodeEditor';
import { keyLabels, withKeys } from '../../stores/key-labels';
import './files.css';

function EditorHead(): React.JSX.Element | null {
  const file = useStore((s) => s.file);
  const dirty = useStore((s) => s.edited !== null);
  const saveState = useStore((s) => s.saveState);
  const save = useStore((s) => s.saveFile);
  const discard = useStore((s) => s.discardEdits);
  if (!file) return null;
  const status = saveState === 'saving' ? 'saving…' : dirty ? 'unsaved' : saveState === 'saved' ? 'saved' : '';
  return (
    <div className="editor-head">
      <span className="editor-path" title={file.path} data-testid="editor-path">
        {dirty ? '● ' : ''}
        {file.path}
      </span>
      <span className="editor-meta">
        {file.encoding} · {file.eol.toUpperCase()}
      </span>
      <span className="editor-status" data-testid="editor-status">
        {status}
      </span>
      <button disabled={!dirty} onClick={() => discard()} title="Drop the unsaved edits">
        Discard
      </button>
      <button
        className="primary"
        disabled={!dirty || saveState === 'saving'}
        onClick={() => void save()}
        data-testid="editor-save"
        title={withKeys('Save; waits while the agent is writing this file', 'file.save')}
      >
        Save
      </button>
    </div>
  );
}

export function FileView(): React.JSX.Element {
  const file = useStore((s) => s.file);
  return (
    <section className="file-view" data-testid="file-view">
      <FileTree />
      <div className="file-main">
        <EditorHead />
        {file ? (
          <CodeEditor />
        ) : (
          <p className="muted pad">
            Pick a file, or press {keyLabels('file.quickOpen').join(' or ')} to find one by name.
          </p>
        )}
      </div>
    </section>
  );
}
