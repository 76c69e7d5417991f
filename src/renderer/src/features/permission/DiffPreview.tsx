/**
 * A read-only Monaco diff of one file of a permission preview. Monaco loads lazily, so first paint stays fast. A new
 * or deleted file is one read-only editor with every line marked added or removed (preview-text.ts `wholeFile`).
 */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { releaseFocus } from '../files/release-focus';
import { previewTexts, wholeFile } from './preview-text';

/** The preview of one file's change (`patch`, a unified patch of `path`). */
export function DiffPreview({ patch, path }: { patch: string | undefined; path: string }): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let disposed = false;
    let dispose = (): void => {};
    void import('./monaco').then(({ monaco, osTheme }) => {
      const box = host.current;
      if (disposed || !box) return;
      const texts = previewTexts(patch);
      const whole = wholeFile(texts);
      const common = {
        readOnly: true,
        automaticLayout: true,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        theme: osTheme(),
        // A read-only preview: its hidden inputs are no Tab stops (the dialog's buttons are).
        tabIndex: -1,
      };
      if (whole) {
        const model = monaco.editor.createModel(whole.text, 'plaintext');
        const editor = monaco.editor.create(box, { ...common, model, glyphMargin: false, folding: false });
        editor.createDecorationsCollection([
          {
            range: new monaco.Range(1, 1, model.getLineCount(), 1),
            options: {
              isWholeLine: true,
              className: `preview-line-${whole.kind}`,
              linesDecorationsClassName: `preview-mark-${whole.kind}`,
            },
          },
        ]);
        dispose = () => {
          releaseFocus(box);
          editor.dispose();
          model.dispose();
        };
        return;
      }
      const original = monaco.editor.createModel(texts.before, 'plaintext');
      const modified = monaco.editor.createModel(texts.after, 'plaintext');
      const editor = monaco.editor.createDiffEditor(box, {
        ...common,
        renderSideBySide: true,
        renderGutterMenu: false, // not used; its menu re-reads context keys (see review/DiffView.tsx)
        renderSideBySideInlineBreakpoint: 560,
        renderOverviewRuler: false,
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
