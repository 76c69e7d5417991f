/**
 * Shadow snapshot benchmark: `npm run bench:snapshot`.
 *
 * Side by side with native git as the anchor (`git --git-dir=<tmp> --work-tree=<tree> add -A && git write-tree`;
 * restore as `read-tree -u --reset`), alternating which side runs first, medians over REPS runs, on two trees:
 *   - gen2k: ~2,000 generated source-like files in nested folders (deterministic, compressible like real code);
 *   - nm: a copy of this project's node_modules (files ≤ 2 MiB, no .gitignore/.git, ~20,500 files), snapshotted
 *     as a plain project with no default ignores so both sides see the same files.
 * Measured: first track, no-change track, no-change track right after reopening, track after touching 10 files
 * and adding 2, diffFull/patch/diff/revert of those 12, restore of 10 modified files, full restore into an
 * emptied folder (3 runs on the large tree: writing 20k files dominates), store size on disk (allocated blocks), peak RSS of this process (our store runs in-process;
 * git runs in children), and whether tree ids are identical. Figures are taken on a shared, busy 2-core machine. `--quick` runs only the large tree's track cases;
 * `--restore` the track and restore rows of both trees.
 */
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SnapshotStore } from '../src/main/snapshot';

const REPS = 5;
/** `--quick`: only the large tree's first track, store size and no-change tracks (plain and after reopening). */
const QUICK = process.argv.includes('--quick');
/** `--restore`: both trees, their track rows and the restore rows only (restore of 10 files, full restore). */
const RESTORE_ONLY = process.argv.includes('--restore');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const results: string[] = [];
let failures = 0;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = [
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
function codeLine(r: () => number): string {
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
function genTree(root: string): void {
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
function copyModules(src: string, root: string, limit: number): number {
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

function git(gitdir: string, tree: string, cmd: string): string {
  return execFileSync('sh', ['-c', `git --git-dir="${gitdir}" --work-tree="${tree}" ${cmd}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  }).trim();
}
const nativeTrack = (gd: string, tree: string): string =>
  git(gd, tree, `add -A && git --git-dir="${gd}" --work-tree="${tree}" write-tree`);

function duBytes(p: string): number {
  const st = lstatSync(p);
  let total = st.blocks * 512;
  if (st.isDirectory()) for (const n of readdirSync(p)) total += duBytes(path.join(p, n));
  return total;
}

async function time<T>(fn: () => T | Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/** Runs ours and native `reps` times, alternating which goes first; `prep` runs before each side's run. */
async function pair(
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

function report(
  label: string,
  ours: number,
  native: number | undefined,
  target: number | undefined,
  unit = 'ms',
): void {
  const ratio = native ? ours / native : undefined;
  const ok = target === undefined || ratio === undefined ? '' : ratio <= target ? 'OK  ' : 'MISS';
  if (ok === 'MISS') failures++;
  const r = ratio === undefined ? '' : `${ratio.toFixed(2)}x`;
  const line = `${label.padEnd(34)} ours ${ours.toFixed(1).padStart(9)} ${unit}  git ${native === undefined ? '        -' : native.toFixed(1).padStart(9)} ${unit}  ${r.padStart(7)}  ${target === undefined ? '' : `target ≤${target}x ${ok}`}`;
  results.push(line);
  console.log(line);
}

function absolute(label: string, ms: number, limit: number): void {
  const ok = ms <= limit ? 'OK  ' : 'MISS';
  if (ok === 'MISS') failures++;
  const line = `${label.padEnd(34)} ours ${ms.toFixed(1).padStart(9)} ms  target ≤${limit} ms ${ok}`;
  results.push(line);
  console.log(line);
}

interface Side {
  name: string;
  tree: string;
  s: SnapshotStore;
  gd: string;
  data: string;
}

/** First track (fresh stores each run), ids, sizes, no-change tracks (also right after reopening). */
async function benchTracks(name: string, tree: string, base: string): Promise<Side> {
  const opts = (data: string) => ({ worktree: tree, dataDir: data, ignoreDefaults: [], log: () => undefined });
  let run = 0;
  let store: SnapshotStore | undefined;
  let [gd, data, ourTree, gitTree] = ['', '', '', ''];
  const ours = async (): Promise<void> => {
    await store?.close();
    data = path.join(base, `${name}-data${run++}`);
    store = await SnapshotStore.open(opts(data));
    ourTree = await store.track();
  };
  const native = (): void => {
    gd = path.join(base, `${name}-git${run++}`);
    execFileSync('git', ['init', '-q', '--bare', gd]);
    gitTree = nativeTrack(gd, tree);
  };
  await pair('first track', 1.0, ours, native);
  const s = store as SnapshotStore;
  const idsEqual = ourTree === gitTree;
  if (!idsEqual) failures++;
  results.push(`${name}: tree ids identical: ${idsEqual} (${ourTree} / ${gitTree})`);
  report('store size on disk (MB)', duBytes(s.gitdir) / 1e6, duBytes(gd) / 1e6, 0.3, 'MB');
  await pair(
    'no-change track',
    1.2,
    () => s.track(),
    () => nativeTrack(gd, tree),
  );
  let reopened: SnapshotStore | undefined;
  const reopen = async (): Promise<void> => {
    await reopened?.close();
    reopened = await SnapshotStore.open(opts(data));
    await reopened.track();
  };
  await pair('no-change track after reopen', 1.2, reopen, () => nativeTrack(gd, tree));
  await reopened?.close();
  return { name, tree, s, gd, data };
}

/** Median time of REPS runs of `fn` (for operations with an absolute target). */
async function medianOf(fn: () => unknown): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < REPS; i++) xs.push((await time(fn))[0]);
  return median(xs);
}

/** Track after touching 10 files and adding 2; diffFull, patch, diff and revert of those changes. */
async function benchChanges(x: Side, touched: string[]): Promise<void> {
  let k = 0;
  const touch = (): void => {
    k++;
    for (const f of touched) appendFileSync(path.join(x.tree, f), `// touch ${k}\n`);
    writeFileSync(path.join(x.tree, `added-a-${k}.ts`), `export const a = ${k};\n`);
    writeFileSync(path.join(x.tree, `added-b-${k}.ts`), `export const b = ${k};\n`);
  };
  const before = await x.s.track();
  await pair(
    'track after 10 touched + 2 added',
    1.2,
    () => x.s.track(),
    () => nativeTrack(x.gd, x.tree),
    touch,
  );
  const after = await x.s.track();
  const diffs = await x.s.diffFull(before, after);
  const gitDiff = await medianOf(() => git(x.gd, x.tree, `diff-tree -r -p ${before} ${after}`));
  report(`diffFull of ${diffs.length} files`, await medianOf(() => x.s.diffFull(before, after)), gitDiff, undefined);
  absolute(`patch (${diffs.length} files changed)`, await medianOf(() => x.s.patch(before)), 100);
  absolute(`diff (${diffs.length} files changed)`, await medianOf(() => x.s.diff(before)), 100);
  const changed = (await x.s.patch(before)).files;
  absolute(
    `revert of ${changed.length} files`,
    await medianOf(() => x.s.revert([{ hash: before, files: changed }])),
    100,
  );
}

/** Restore of 10 modified files, and full restore into an emptied folder. */
async function benchRestores(x: Side, touched: string[]): Promise<void> {
  const target = await x.s.track();
  const gitTarget = nativeTrack(x.gd, x.tree);
  let k = 0;
  const modify = (): void => {
    k++;
    for (const f of touched) appendFileSync(path.join(x.tree, f), `// modify ${k}\n`);
  };
  const nativeRestore = (): string => git(x.gd, x.tree, `read-tree -u --reset ${gitTarget}`);
  // A restore that wrote nothing would look fast: after each run (untimed) the folder must be the target again.
  const verify = async (): Promise<void> => {
    if ((await x.s.track()) !== target) throw new Error('restore did not reproduce the target tree');
  };
  await pair('restore of 10 files', 1.0, () => x.s.restore(target), nativeRestore, modify, REPS, verify);
  const empty = (): void => {
    for (const n of readdirSync(x.tree)) rmSync(path.join(x.tree, n), { recursive: true, force: true });
  };
  // Writing every file dominates here (and this disk is slow): on the large tree 3 alternating runs keep the
  // whole benchmark within ~5 minutes.
  const reps = x.name === 'nm' ? 3 : REPS;
  await pair(
    `full restore (emptied folder)${reps === REPS ? '' : ` [median of ${reps}]`}`,
    1.0,
    () => x.s.restore(target),
    nativeRestore,
    empty,
    reps,
    verify,
  );
}

async function benchTree(name: string, tree: string, base: string): Promise<void> {
  const files = execFileSync('sh', ['-c', `find "${tree}" -type f -o -type l | wc -l`], { encoding: 'utf8' }).trim();
  const started = performance.now();
  console.log(`\n== ${name}: ${files} files ==`);
  results.push(`-- ${name}: ${files} files`);
  const x = await benchTracks(name, tree, base);
  if (!QUICK) {
    const targets = (await x.s.listFiles(await x.s.track())).filter((f) => f.mode === '100644').map((f) => f.path);
    const touched = targets.filter((_, i) => i % Math.floor(targets.length / 10) === 0).slice(0, 10);
    if (!RESTORE_ONLY) await benchChanges(x, touched);
    await benchRestores(x, touched);
  }
  await x.s.close();
  console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'landfall-snapbench-'));
  const t0 = performance.now();
  try {
    const gen = path.join(base, 'gen2k');
    if (!QUICK) {
      genTree(gen);
      await benchTree('gen2k', gen, base);
    }
    const nm = path.join(base, 'nm');
    const copied = copyModules(path.resolve(process.cwd(), 'node_modules'), nm, 20_500);
    console.log(`copied ${copied} files of node_modules`);
    await benchTree('nm', nm, base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const line = `peak RSS of this process ${peakMb.toFixed(0)} MB (target ≤ 500 MB) ${peakMb <= 500 ? 'OK' : 'MISS'}`;
  results.push(line);
  if (peakMb > 500) failures++;
  console.log(`\n== summary (medians of ${REPS}, alternating; machine shared and under load) ==`);
  for (const r of results) console.log(r);
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; targets missed: ${failures}`);
}

await main();
