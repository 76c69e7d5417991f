/**
 * Test support: the child scripts of the crash tests (a real process, SIGKILLed mid-operation) run by plain Node
 * from a bundle of their TypeScript instead of through tsx. Under tsx a child spends about two seconds of CPU
 * loading the service's module graph (every module crosses tsx's loader thread); the crash tests start dozens of
 * children, and the bundle loads in well under half of that.
 *
 * The bundle holds this repository's sources only (packages stay imports, resolved from node_modules as usual;
 * native ones load as they do for the app). Each source file's `import.meta.url` is replaced by its own file URL,
 * so `new URL('./write.md', import.meta.url)` and `createRequire(import.meta.url)` find what they find under tsx.
 * One bundle per script and test process, written under node_modules/.cache (where package imports resolve) and
 * removed when the process exits (or, when it was killed, by the next test process that bundles).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The repository's root folder (this file is src/main/proc/test-child.ts). */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = path.join(REPO, 'node_modules', '.cache', 'landfall-test-children');

const bundles = new Map<string, Promise<string>>();
const written: string[] = [];
process.once('exit', () => {
  for (const f of written) rmSync(f, { force: true });
});

/**
 * The arguments for `spawn(process.execPath, …)` that run TypeScript file `script` (absolute) with `args`: the
 * path of its bundle, then `args`. The bundle is built on the first call for a script (about half a second) and
 * reused by later calls of the same process. Rejects when esbuild cannot bundle the script (a syntax error).
 */
export async function childArgs(script: string, args: string[] = []): Promise<string[]> {
  let bundle = bundles.get(script);
  if (!bundle) {
    bundle = bundleOf(script);
    bundles.set(script, bundle);
  }
  return [await bundle, ...args];
}

/** Removes the bundles of test processes that are gone (one ended by a signal never ran its exit handler). */
function removeOrphans(): void {
  for (const name of readdirSync(OUT)) {
    const pid = Number(/-(\d+)\.mjs$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(path.join(OUT, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function bundleOf(script: string): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  removeOrphans();
  const outfile = path.join(OUT, `${path.basename(script, path.extname(script))}-${process.pid}.mjs`);
  written.push(outfile);
  await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, (file) => ({
            contents: readFileSync(file.path, 'utf8').replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(file.path).href),
            ),
            loader: file.path.endsWith('.tsx') ? 'tsx' : 'ts',
          }));
        },
      },
    ],
  });
  return outfile;
}
