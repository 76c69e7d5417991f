/**
 * The Vite plugin that inlines the tools' prose files into the electron-vite bundle of main (see prose.ts): each
 * `toolProse(new URL('./<name>.md', import.meta.url))` becomes the file's text as a string literal, read at build
 * time through the same `proseText` the runtime uses, so the bundled app sends the bytes tsx and vitest send and
 * reads no file at run time. A `toolProse(` call of any other form fails the build (it would read a file the
 * bundle does not have). Used by electron.vite.config.ts; no runtime code imports it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { PROSE_CALL, proseText } from './prose';

/** `code` of module `file` with every prose call inlined, and the prose files it read (absolute paths). */
export function inlineProse(code: string, file: string): { code: string; read: string[] } {
  const read: string[] = [];
  const out = code.replace(PROSE_CALL, (_call, rel: string) => {
    const abs = path.resolve(path.dirname(file), rel);
    read.push(abs);
    const text = proseText(readFileSync(abs, 'utf8'));
    if (text.trim().length === 0) throw new Error(`${abs}: the tool text is empty`);
    return JSON.stringify(text);
  });
  if (/\btoolProse\s*\(/.test(out)) {
    throw new Error(`${file}: toolProse must be called as toolProse(new URL('./<name>.md', import.meta.url))`);
  }
  return { code: out, read };
}

/** The plugin: inline the prose calls of every module outside node_modules (the loader and this file excepted). */
export function inlineToolProse(): Plugin {
  const own = [path.join('src', 'main', 'tools', 'prose.ts'), path.join('src', 'main', 'tools', 'prose-inline.ts')];
  return {
    name: 'landfall:inline-tool-prose',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (file.includes('/node_modules/') || own.some((f) => file.endsWith(f)) || !code.includes('toolProse'))
        return null;
      const inlined = inlineProse(code, file);
      if (inlined.read.length === 0 && inlined.code === code) return null;
      for (const f of inlined.read) this.addWatchFile(f);
      return { code: inlined.code, map: null };
    },
  };
}
