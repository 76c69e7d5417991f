/**
 * The tools' model-facing prose — each tool's description, and any hint too long to read well inside the code —
 * lives in a text file beside the tool (`edit.md` beside `edit.ts`, `edit.exists-hint.md` for a long hint), so the
 * words the model reads can be reviewed and edited as text. The file's bytes are the text sent, except its final
 * line break (editors add one) and CRLF line breaks (a Windows checkout), which `proseText` takes away.
 *
 * How every runtime finds the text:
 *   - tsx (the CLI, `npm run serve`) and vitest run the sources, so `toolProse` reads the file beside the module;
 *   - the electron-vite bundle of main has no sources beside it: its build inlines each text as a string at the
 *     call (prose-inline.ts, in electron.vite.config.ts), so the bundle reads no file. For the build to see it,
 *     every call is written exactly `toolProse(new URL('./<name>.md', import.meta.url))`; the build refuses any
 *     other form.
 * The snapshot worker imports no tool, so it is not concerned.
 */
import { readFileSync } from 'node:fs';

/**
 * The shape of a call the bundle inlines: `toolProse(new URL('./<name>.md', import.meta.url))`, the file name in
 * group 1 (relative to the calling module, no folders).
 */
export const PROSE_CALL = /\btoolProse\(\s*new URL\(\s*'(\.\/[\w.-]+\.md)',\s*import\.meta\.url\s*\)\s*\)/g;

/** The text the model is sent for a prose file holding `raw`: CRLF read as LF, the final line break dropped. */
export function proseText(raw: string): string {
  const lf = raw.replace(/\r\n/g, '\n');
  return lf.endsWith('\n') ? lf.slice(0, -1) : lf;
}

/**
 * The prose in the file at `url` (see the module docstring for the form the call must take). Throws when the file
 * is missing or holds no text: a tool without its words is a packaging bug, not a failure to report to a model.
 */
export function toolProse(url: URL): string {
  const text = proseText(readFileSync(url, 'utf8'));
  if (text.trim().length === 0) throw new Error(`the tool text ${url.pathname} is empty`);
  return text;
}
