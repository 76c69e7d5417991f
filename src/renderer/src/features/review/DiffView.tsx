/**
 * The Monaco diff of the focused file at the selected point: side by side or inline, read-only, with a
 * Keep / Reject bar under every hunk (hunk-zones.ts). One editor lives for the panel's lifetime from the first text
 * diff on (not from mount: an empty panel never loads Monaco); a file change swaps models. Guarded files (binary,
 * too large, very long lines — fixtures/bugs/README.md B40) never reach Monaco: a notice says what changed and the whole-file hunk keeps
 * its buttons. The editor is never focused by code (fixtures/bugs/README.md B41). It is not a Tab stop either (its input
 * element is invisible; the hunk bars' buttons are): a click puts the keyboard focus in it, and then the cursor's
 * hunk is the focused one, so the review keys (src/shared/keymap.ts) act on the change under the cursor.
 */
import { useEffect, useRef, useState } from 'react';
import { releaseFocus } from '../files/release-focus';
import type React from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { ReviewFile, ReviewHunk } from '../../../../shared/review-schemas';
import { mountHunkBars, type HunkAction } from './hunk-zones';
import { GuardNotice } from './GuardNotice';
import { READONLY_EDITOR } from '../layout/keyboard';
import { useStore } from '../../stores';

type MonacoModule = typeof Monaco;

export interface DiffViewProps {
  file: ReviewFile | undefined;
  focusedId: string | null;
  sideBySide: boolean;
  onAction(hunk: ReviewHunk, action: HunkAction): void;
}

/** Marks the moment a file's diff has been computed and drawn (read by the bench: `performance.getEntriesByName`). */
function markShown(path: string): void {
  performance.mark('review-diff-shown', { detail: { path } });
}

export function DiffView({ file, focusedId, sideBySide, onAction }: DiffViewProps): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<{ monaco: MonacoModule; diff: Monaco.editor.IStandaloneDiffEditor } | null>(
    null,
  );
  const retired = useRef<Monaco.editor.ITextModel[]>([]);
  /** Removes the hunk bars now shown (null: none); called before the editor is disposed. */
  const unmountBars = useRef<(() => void) | null>(null);
  const action = useRef(onAction);
  action.current = onAction;

  const guarded = !file || file.guard !== undefined;
  // Monaco (a multi-megabyte chunk) is fetched, compiled and mounted only once there is a text diff to draw: an
  // empty timeline — a new session streaming its first turn — must not pay for it on the renderer's main thread.
  const [wanted, setWanted] = useState(false);
  if (!guarded && !wanted) setWanted(true);

  useEffect(() => {
    if (!wanted) return;
    let disposed = false;
    let dispose = (): void => {};
    void import('../permission/monaco').then(({ monaco, osTheme }) => {
      const box = host.current;
      if (disposed || !box) return;
      const diff = monaco.editor.createDiffEditor(box, {
        readOnly: true,
        originalEditable: false,
        // Its invisible input element is no Tab stop: Tab goes from the hunk bars' buttons onwards.
        tabIndex: -1,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        renderOverviewRuler: true,
        theme: osTheme(),
        maxComputationTime: 2000,
        hideUnchangedRegions: { enabled: false },
        stopRenderingLineAfter: 2000,
        // The +/- gutter glyphs and revert arrows need the codicon font and an editable side; the hunk bars say it.
        renderIndicators: false,
        renderMarginRevertIcon: false,
        // Monaco's own hunk menu in the gutter is not used (the hunk bars are ours); its menu is an observable that
        // re-reads the editor's context keys and threw "AbstractContextKeyService has been disposed" when a
        // change reached it after the editor was gone.
        renderGutterMenu: false,
        // The user's side-by-side / inline choice holds in a narrow panel (Monaco would silently switch to inline).
        useInlineViewWhenSpaceIsLimited: false,
      });
      setEditor({ monaco, diff });
      // A click (or the arrow keys) in either side moves the focused hunk to the cursor's; code moving the cursor
      // (a new model) does not. CursorChangeReason.Explicit = 3.
      const follow = (side: 'modified' | 'original') => (e: Monaco.editor.ICursorPositionChangedEvent) => {
        if (e.reason === 3) useStore.getState().focusLine(e.position.lineNumber, side);
      };
      const cursorSubs = [
        diff.getModifiedEditor().onDidChangeCursorPosition(follow('modified')),
        diff.getOriginalEditor().onDidChangeCursorPosition(follow('original')),
      ];
      // Follow the OS theme while open (Monaco's theme is global and fixed at creation otherwise).
      const media = window.matchMedia('(prefers-color-scheme: dark)');
      const onTheme = (): void => monaco.editor.setTheme(osTheme());
      media.addEventListener('change', onTheme);
      dispose = () => {
        media.removeEventListener('change', onTheme);
        for (const sub of cursorSubs) sub.dispose();
        releaseFocus(box);
        unmountBars.current?.(); // the hunk bars' zones go while the editor is alive (effects clean up in order)
        unmountBars.current = null;
        const m = diff.getModel();
        diff.dispose();
        m?.original.dispose();
        m?.modified.dispose();
        for (const r of retired.current.splice(0)) r.dispose();
      };
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [wanted]);

  const text = guarded ? null : { before: file.before ?? '', after: file.after ?? '', path: file.path };
  useEffect(() => {
    if (!editor || !text) return;
    const { monaco, diff } = editor;
    const old = diff.getModel();
    const original = monaco.editor.createModel(text.before, 'plaintext');
    const modified = monaco.editor.createModel(text.after, 'plaintext');
    diff.setModel({ original, modified });
    // The replaced models are disposed once the new diff is in, not now: a diff of them may still be computing in
    // the editor worker, and disposing its models under it rejects with "no diff result available" (a page error).
    if (old) retired.current.push(old.original, old.modified);
    const sub = diff.onDidUpdateDiff(() => {
      sub.dispose();
      for (const m of retired.current.splice(0)) if (m !== original && m !== modified) m.dispose();
      markShown(text.path);
    });
  }, [editor, text?.path, text?.before, text?.after]);

  useEffect(() => {
    editor?.diff.updateOptions({ renderSideBySide: sideBySide });
  }, [editor, sideBySide]);

  useEffect(() => {
    if (!editor || guarded || !file) return;
    const original = sideBySide ? editor.diff.getOriginalEditor() : null;
    const unmount = mountHunkBars(
      editor.monaco,
      editor.diff.getModifiedEditor(),
      original,
      file.hunks,
      focusedId,
      (h, a) => action.current(h, a),
    );
    unmountBars.current = unmount;
    return () => {
      if (unmountBars.current !== unmount) return; // already removed, before the editor was disposed
      unmountBars.current = null;
      unmount();
    };
  }, [editor, file, guarded, focusedId, sideBySide]);

  return (
    <div className="review-diff">
      {file && guarded ? <GuardNotice file={file} focusedId={focusedId} onAction={onAction} /> : null}
      {!file ? <div className="review-empty">No file changed at this point.</div> : null}
      <div
        className="review-monaco"
        ref={host}
        data-testid="review-diff-editor"
        {...{ [READONLY_EDITOR]: '' }}
        style={{ display: guarded ? 'none' : 'block' }}
      />
    </div>
  );
}
