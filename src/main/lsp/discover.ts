/**
 * Finding a server's root and its binary (DESIGN §7).
 *
 * Root: the nearest folder holding one of the server's markers, walking up from the file and never above the
 * project root; no marker means the project root. So `packages/web/src/a.ts` in a monorepo gets
 * `packages/web` (its own tsconfig/package.json) and its own server process, not the launch folder.
 *
 * Binary, in order: `node_modules/.bin/<bin>` from the server root up to the project root (the project's own
 * copy wins), then the package bundled in Landfall's node_modules, then PATH. Node scripts run under a real Node.js
 * (node-runtime.ts: this process under plain Node; a `node` on PATH or in the usual folders under Electron, whose
 * packaged binary cannot act as node).
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { isInside } from '../fs/workspace';
import { nodeRuntime } from './node-runtime';

/** How to start a server: a binary name looked up in node_modules/.bin and PATH, or a package bundled with Landfall. */
export interface ServerCommand {
  /** Executable name (node_modules/.bin/<bin> or PATH), or an absolute path. */
  bin: string;
  args: string[];
  /** npm package shipped in Landfall's own node_modules whose `bin[binName]` script is the fallback. */
  bundled?: { pkg: string; binName: string };
}

/** A resolved command line: executable, arguments, extra environment, and where it was found. */
export interface ResolvedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  source: 'project' | 'bundled' | 'path';
}

const requireHere = createRequire(import.meta.url);

/** Folders from `dir` up to `projectRoot` inclusive (just `projectRoot` when `dir` is outside it). */
export function foldersUpTo(dir: string, projectRoot: string): string[] {
  if (!isInside(projectRoot, dir)) return [projectRoot];
  const out: string[] = [];
  let cur = dir;
  for (;;) {
    out.push(cur);
    if (cur === projectRoot) return out;
    const up = path.dirname(cur);
    if (up === cur) return out;
    cur = up;
  }
}

/** The server root for a file: nearest folder (from the file's folder up to `projectRoot`) holding a marker. */
export function findRoot(absFile: string, projectRoot: string, markers: string[]): string {
  if (markers.length === 0) return projectRoot;
  for (const dir of foldersUpTo(path.dirname(absFile), projectRoot)) {
    if (markers.some((m) => existsSync(path.join(dir, m)))) return dir;
  }
  return projectRoot;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function firstLine(file: string): string {
  try {
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(120);
    const n = readSync(fd, buf, 0, 120, 0);
    closeSync(fd);
    return buf.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * A script whose shebang names node (or a .js/.cjs/.mjs file) runs under the node runtime (node-runtime.ts);
 * anything else is spawned directly. Error `unavailable` when the script needs Node.js and none is found.
 */
function launch(file: string, args: string[], source: ResolvedCommand['source']): Result<ResolvedCommand> {
  const real = realpathSync(file);
  const isNode = /\.(c|m)?js$/.test(real) || /^#!.*\bnode\b/.test(firstLine(real));
  if (!isNode) return ok({ command: real, args, env: {}, source });
  const node = nodeRuntime(whichSync, isExecutableFile);
  if (!node)
    return fail(
      'unavailable',
      `language server ${path.basename(real)} runs on Node.js, and no node was found on PATH`,
      'Install Node.js (https://nodejs.org) or put node on PATH, then restart Landfall.',
    );
  return ok({ command: node, args: [real, ...args], env: {}, source });
}

/** Look an executable name up on PATH; absolute paths are checked as they are. */
export function whichSync(bin: string): string | undefined {
  if (path.isAbsolute(bin)) return isExecutableFile(bin) ? bin : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutableFile(path.join(dir, bin))) return path.join(dir, bin);
  }
  return undefined;
}

/** The script a bundled package declares as `bin[binName]`, resolved from Landfall's own node_modules. */
export function bundledScript(pkg: string, binName: string): string | undefined {
  try {
    const manifestPath = requireHere.resolve(`${pkg}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
    const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
    if (!rel) return undefined;
    const script = path.join(path.dirname(manifestPath), rel);
    return existsSync(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolve a server command: project node_modules/.bin (server root up to project root), bundled, PATH.
 * Fails with `unavailable` (hint: how to install) when none has it.
 */
export function resolveCommand(cmd: ServerCommand, serverRoot: string, projectRoot: string): Result<ResolvedCommand> {
  if (!path.isAbsolute(cmd.bin)) {
    for (const dir of foldersUpTo(serverRoot, projectRoot)) {
      const candidate = path.join(dir, 'node_modules', '.bin', cmd.bin);
      if (isExecutableFile(candidate)) return launch(candidate, cmd.args, 'project');
    }
    if (cmd.bundled) {
      const script = bundledScript(cmd.bundled.pkg, cmd.bundled.binName);
      if (script) return launch(script, cmd.args, 'bundled');
    }
  }
  const onPath = whichSync(cmd.bin);
  if (onPath) return launch(onPath, cmd.args, 'path');
  return fail(
    'unavailable',
    `language server "${cmd.bin}" is not installed`,
    `Install ${cmd.bundled?.pkg ?? cmd.bin} (npm) or put ${cmd.bin} on PATH.`,
  );
}

/**
 * The tsserver.js typescript-language-server should use: the project's own TypeScript (nearest
 * node_modules/typescript from the server root up) when it still ships tsserver.js (TypeScript 7 does not),
 * otherwise the TypeScript 6 bundled with Landfall.
 */
export function tsserverPath(serverRoot: string, projectRoot: string): string | undefined {
  for (const dir of foldersUpTo(serverRoot, projectRoot)) {
    const candidate = path.join(dir, 'node_modules', 'typescript', 'lib', 'tsserver.js');
    if (existsSync(candidate)) return candidate;
  }
  try {
    return requireHere.resolve('typescript/lib/tsserver.js');
  } catch {
    return undefined;
  }
}
