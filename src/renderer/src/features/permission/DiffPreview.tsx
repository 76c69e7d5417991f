/** A read-only Monaco diff of one file of a permission preview. Monaco loads lazily, so first paint stays fast. */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { releaseFocus } from '../files/release-focus';
import { previewTexts } from './preview-text';

export function DiffPreview({ patch, path }: { patch: string | undefined; path: string }): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let disposed = false;
    let dispose = (): void => {};
    void import('./monaco').then(({ monaco, osTheme }) => {
      const box = host.current;
      if (disposed || !box) return;
      const { before, after } = previewTexts(patch);
      const original = monaco.editor.createModel(before, 'plaintext');
      const modified = monaco.editor.createModel(after, 'plaintext');
      const editor = monaco.editor.createDiffEditor(box, {
        readOnly: true,
        renderSideBySide: true,
        renderSideBySideInlineBreakpoint: 560,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        theme: osTheme(),
        renderOverviewRuler: false,
        // A read-only preview: its hidden inputs are no Tab stops (the dialog's buttons are).
        tabIndex: -1,
      });
      editor.setModel({ original, modified });
      dispose = () => {
        releaseFocus(box);
        editor.dispose();
        original.dispose();
        modified.dispose();
      };
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [patch]);
  return <div className="diff-preview" ref={host} data-testid="diff-preview" aria-label={`Preview of ${path}`} />;
}
