import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { inlineToolProse } from './src/main/tools/prose-inline';

/**
 * Three builds: main (ESM, Node), preload (CommonJS — a sandboxed preload cannot be an ES module),
 * renderer (React, Monaco bundled locally — no CDN).
 */
export default defineConfig({
  main: {
    // The tools' prose files (src/main/tools/*.md) are inlined as strings: the bundle reads no file beside it.
    plugins: [externalizeDepsPlugin(), inlineToolProse()],
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/electron/main.ts'),
          // The snapshot store's worker thread (src/main/snapshot/worker-client.ts), loaded by URL at run time.
          'snapshot-worker': resolve(__dirname, 'src/main/snapshot/worker.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Dev server only: the React refresh preamble is an inline script, so the meta CSP admits inline scripts
    // while `npm run dev` runs (main's header does the same); builds keep script-src 'self'.
    plugins: [
      react(),
      {
        name: 'landfall-dev-csp',
        apply: 'serve',
        transformIndexHtml: (html: string) => html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
      },
    ],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
