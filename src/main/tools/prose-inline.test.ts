/**
 * The bundle of main carries the tools' prose inline: the tool registry built the way electron-vite builds main
 * (Vite, SSR, dependencies external, this plugin), into a folder with no prose file beside it, declares every tool
 * with exactly the text of its file — a bundle that still read a file at run time would fail to load there.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineToolProse } from './prose-inline';
import type { ToolDefinition } from './types';

const ROOT = process.cwd();
// inside the checkout, so the bundle's bare imports resolve from node_modules as the app's do
const cacheDir = path.join(ROOT, 'node_modules', '.cache');
let outDir = '';

beforeAll(() => {
  mkdirSync(cacheDir, { recursive: true });
  outDir = mkdtempSync(path.join(cacheDir, 'landfall-prose-'));
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('tool prose in the bundle of main', () => {
  it('every tool description is inlined, no prose call or prose file is left, and the texts are the files', async () => {
    await build({
      configFile: false,
      logLevel: 'silent',
      root: ROOT,
      plugins: [inlineToolProse()],
      build: {
        ssr: path.join(ROOT, 'src/main/tools/registry.ts'),
        outDir,
        emptyOutDir: true,
        minify: false,
        rollupOptions: { output: { format: 'es', entryFileNames: 'registry.mjs' } },
      },
    });
    const emitted = readdirSync(outDir, { recursive: true }) as string[];
    expect(emitted.filter((f) => f.endsWith('.md'))).toEqual([]);
    const code = emitted
      .filter((f) => f.endsWith('.mjs') || f.endsWith('.js'))
      .map((f) => readFileSync(path.join(outDir, f), 'utf8'))
      .join('\n');
    expect(code).not.toMatch(/\btoolProse\s*\(/);
    const built = (await import(pathToFileURL(path.join(outDir, 'registry.mjs')).href)) as {
      defaultTools: () => ToolDefinition[];
    };
    const { defaultTools } = await import('./registry');
    const fromBundle = built.defaultTools().map((t) => [t.name, t.description]);
    expect(fromBundle).toEqual(defaultTools().map((t) => [t.name, t.description]));
    expect(fromBundle.every(([, d]) => (d as string).length > 0)).toBe(true);
  }, 120_000);
});
