/**
 * Monaco, bundled locally (no CDN) and loaded on first use: the editor API without the language bundles (diff
 * views show plain text), and its worker built by Vite as a same-origin module worker — allowed by the CSP's
 * `worker-src 'self'`, with no eval.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
// The editor API alone carries no icon font; the diff gutter's +/− markers are codicons.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/diffEditor/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

/** The theme that matches the OS setting right now. */
export function osTheme(): 'vs' | 'vs-dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs';
}

export { monaco };
