/**
 * Helpers of the snapshot benchmark (snapshot.bench.ts, snapshot-watch.ts): medians, native git as the anchor,
 * timing side by side (alternating which side runs first), the result lines and the count of missed targets.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/** Runs per measured row. */
export const REPS = 5;
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
/** Result lines, printed again as the summary. */
export const results: string[] = [];
/** Targets missed so far. */
export const tally = { failures: 0 };

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

export const WORDS = [
  'const',
  'return',
  'function',
  'await',
  'import',
  'export',
  'value',
  'result',
  'options',
  'path',
  'node',
  'error',
  'items',
  'length',
  'index',
  'config',
  'string',
  'number',
  'true',
  'false',
  'null',
  'this',
  'state',
  'update',
  'render',
  'props',
  'key',
  'data',
  'store',
  'track',
];

/** One source-like line: indentation, identifiers from a small vocabulary, an occasional literal. */
export function codeLine(r: () => number): string {
  const w = (): string => WORDS[Math.floor(r() * WORDS.length)] as string;
  const indent = '  '.repeat(Math.floor(r() * 4));
  const shape = Math.floor(r() * 4);
  if (shape === 0)
    return `${indent}const ${w()}${Math.floor(r() * 50)} = ${w()}.${w()}(${w()}, ${Math.floor(r() * 1000)});`;
  if (shape === 1) return `${indent}if (${w()}.${w()} === ${w()}) return ${w()};`;
  if (shape === 2) return `${indent}// ${w()} ${w()} ${w()} ${w()} ${w()}`;
  return `${indent}${w()}(${w()}, '${w()}-${Math.floor(r() * 100)}');`;
}

/** ~2,000 source-like files, 3 levels of folders, ~300 B – 12 KB each (median ~3 KB, like real code). */
export function genTree(root: string): void {
  const r = rng(42);
  for (let i = 0; i < 2000; i++) {
    const dir = path.join(root, `pkg${i % 20}`, `mod${i % 7}`, i % 3 === 0 ? 'deep' : '');
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    const n = 8 + Math.floor(r() * r() * 300);
    for (let l = 0; l < n; l++) lines.push(codeLine(r));
    writeFileSync(path.join(dir, `file${i}.ts`), `${lines.join('\n')}\n`);
  }
}

/** Copies node_modules into `root` until `limit` files: files ≤ 2 MiB, symlinks as links, no .gitignore / .git. */
export function copyModules(src: string, root: string, limit: number): number {
  let count = 0;
  const walk = (from: string, to: string): void => {
    mkdirSync(to, { recursive: true });
    for (const d of readdirSync(from, { withFileTypes: true })) {
      if (count >= limit) return;
      if (d.name === '.git' || d.name === '.gitignore' || d.name === '.cache') continue;
      const a = path.join(from, d.name);
      const b = path.join(to, d.name);
      if (d.isDirectory()) walk(a, b);
      else if (d.isSymbolicLink()) {
        symlinkSync(readlinkSync(a), b);
        count++;
      } else if (d.isFile() && lstatSync(a).size <= 2 * 1024 * 1024) {
        copyFileSync(a, b);
        count++;
      }
    }
  };
  walk(src, root);
  return count;
}

export function git(gitdir: string, tree: string, cmd: string): string {
  return execFileSync('sh', ['-c', `git --git-dir="${gitdir}" --work-tree="${tree}" ${cmd}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  }).trim();
}
export const nativeTrack = (gd: string, tree: string): string =>
  git(gd, tree, `add -A && git --git-dir="${gd}" --work-tree="${tree}" write-tree`);

export function duBytes(p: string): number {
  const st = lstatSync(p);
  let total = st.blocks * 512;
  if (st.isDirectory()) for (const n of readdirSync(p)) total += duBytes(path.join(p, n));
  return total;
}

export async function time<T>(fn: () => T | Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/** Runs ours and native `reps` times, alternating which goes first; `prep` runs before each side's run. */
export async function pair(
  label: string,
  target: number | undefined,
  ours: () => unknown,
  native: () => unknown,
  prep?: () => void,
  reps = REPS,
  verify?: () => Promise<void>,
): Promise<void> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < reps; i++) {
    const order: [number[], () => unknown][] =
      i % 2 === 0
        ? [
            [a, ours],
            [b, native],
          ]
        : [
            [b, native],
            [a, ours],
          ];
    for (const [acc, fn] of order) {
      prep?.();
      acc.push((await time(fn))[0]);
      await verify?.();
    }
  }
  report(label, median(a), median(b), target);
}

export function report(
  label: string,
  ours: number,
  native: number | undefined,
  target: number | undefined,
  unit = 'ms',
): void {
  const ratio = native ? ours / native : undefined;
  const ok = target === undefined || ratio === undefined ? '' : ratio <= target ? 'OK  ' : 'MISS';
  if (ok === 'MISS') tally.failures++;
  const r = ratio === undefined ? '' : `${ratio.toFixed(2)}x`;
  const line = `${label.padEnd(34)} ours ${ours.toFixed(1).padStart(9)} ${unit}  git ${native === undefined ? '        -' : native.toFixed(1).padStart(9)} ${unit}  ${r.padStart(7)}  ${target === undefined ? '' : `target ≤${target}x ${ok}`}${peakSoFar()}`;
  results.push(line);
  console.log(line);
}

/**
 * This process's peak RSS so far, for each result line (the summary's last line checks the target), and what is
 * resident now: RSS, the JS heap (used / reserved) and array buffers (MB).
 */
export function peakSoFar(): string {
  const m = process.memoryUsage();
  const mb = (n: number): string => (n / 1e6).toFixed(0);
  const now = `now ${mb(m.rss)}: heap ${mb(m.heapUsed)}/${mb(m.heapTotal)}, buffers ${mb(m.arrayBuffers)}`;
  return `  [peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; ${now}]`;
}

export function absolute(label: string, ms: number, limit: number): void {
  const ok = ms <= limit ? 'OK  ' : 'MISS';
  if (ok === 'MISS') tally.failures++;
  const line = `${label.padEnd(34)} ours ${ms.toFixed(1).padStart(9)} ms  target ≤${limit} ms ${ok}${peakSoFar()}`;
  results.push(line);
  console.log(line);
}
