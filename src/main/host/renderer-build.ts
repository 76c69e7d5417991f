/**
 * Builds the renderer for the web host when the built copy is missing or older than its sources (src/renderer,
 * src/shared). Uses Vite directly with the same settings as electron.vite.config.ts's renderer entry, so
 * `npm run serve` needs neither Electron nor a full electron-vite build.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Newest mtime (ms) of any file under `dir`, 0 when it does not exist. */
async function newest(dir: string): Promise<number> {
  let max = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const s = await stat(join(e.parentPath, e.name));
    if (s.mtimeMs > max) max = s.mtimeMs;
  }
  return max;
}

/** True when `outDir/index.html` is missing or older than any source of the renderer. */
export async function rendererIsStale(projectRoot: string, outDir: string): Promise<boolean> {
  let built: number;
  try {
    built = (await stat(join(outDir, 'index.html'))).mtimeMs;
  } catch {
    return true;
  }
  const sources = Math.max(
    await newest(join(projectRoot, 'src/renderer')),
    await newest(join(projectRoot, 'src/shared')),
  );
  return sources > built;
}

/** Builds src/renderer into `outDir` (Vite production build). Throws on a build error (a bug, not user input). */
export async function buildRenderer(projectRoot: string, outDir: string): Promise<void> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  // Always production code: Vite and the React plugin take NODE_ENV from the environment, and under vitest it is
  // 'test', which would bundle React's development build (double renders, jsxDEV) and skew the UI benchmark.
  const previous = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({
      configFile: false,
      mode: 'production',
      root: resolve(projectRoot, 'src/renderer'),
      base: './',
      logLevel: 'warn',
      plugins: [react()],
      build: {
        outDir,
        emptyOutDir: true,
        chunkSizeWarningLimit: 6000,
        rollupOptions: { input: { index: resolve(projectRoot, 'src/renderer/index.html') } },
      },
    });
  } finally {
    if (previous === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = previous;
  }
}
