/**
 * Shadow snapshot benchmark: `npm run bench:snapshot`.
 *
 * Side by side with native git as the anchor (`git --git-dir=<tmp> --work-tree=<tree> add -A && git write-tree`;
 * restore as `read-tree -u --reset`), alternating which side runs first, medians over REPS runs, on three trees:
 *   - gen2k: ~2,000 generated source-like files in nested folders (deterministic, compressible like real code);
 *   - nm: a copy of this project's node_modules (files ≤ 2 MiB, no .gitignore/.git, ~20,500 files), snapshotted
 *     as a plain project with no default ignores so both sides see the same files;
 *   - gen100k: a generated 100,000-file monorepo (snapshot-watch.ts); first track and full restore 3 runs each.
 * On nm and gen100k also the watched rows (snapshot-watch.ts: a store with the file watcher, against native git).
 * Measured: first track, no-change track, no-change track right after reopening, track after touching 10 files
 * and adding 2, diffFull/patch/diff/revert of those 12 (patch and diff ≤ 100 ms; on gen100k, where they begin
 * with a walk of the whole tree, against native git's `add -A`, `write-tree` and `diff-tree -p`), restore of 10
 * modified files, full restore into an emptied folder (3 runs on the large trees: writing every file dominates),
 * store size on disk (allocated blocks), whether tree ids are identical, and on gen100k the peak RSS of each store
 * operation in a process of its own (snapshot-rss-rows.ts; target ≤ 500 MB) — this process's own peak is shown
 * too, for information: it has also generated the trees and held several stores. Figures are taken on a shared, busy 2-core machine. `--quick` runs
 * only the large tree's track cases; `--restore` the track and restore rows; `--watch` only the watched rows;
 * `--big` only the 100,000-file tree.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SnapshotStore } from '../src/main/snapshot';
import {
  absolute,
  copyModules,
  duBytes,
  genTree,
  git,
  median,
  nativeTrack,
  pair,
  peakSoFar,
  REPS,
  report,
  results,
  tally,
  time,
} from './snapshot-common';
import { benchWatched, genBigTree } from './snapshot-watch';
import { rssRows } from './snapshot-rss-rows';

/** `--quick`: only the large tree's first track, store size and no-change tracks (plain and after reopening). */
const QUICK = process.argv.includes('--quick');
/** `--restore`: both trees, their track rows and the restore rows only (restore of 10 files, full restore). */
const RESTORE_ONLY = process.argv.includes('--restore');
/** `--watch`: only the watched rows (snapshot-watch.ts), after one untimed first track per side. */
const WATCH_ONLY = process.argv.includes('--watch');
/** `--big`: only the generated 100,000-file tree. */
const BIG_ONLY = process.argv.includes('--big');
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
  if (!idsEqual) tally.failures++;
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

/** One untimed first track per side (for `--watch`). */
async function firstTracks(name: string, tree: string, base: string): Promise<Side> {
  const data = path.join(base, `${name}-data`);
  const s = await SnapshotStore.open({ worktree: tree, dataDir: data, ignoreDefaults: [], log: () => undefined });
  await s.track();
  const gd = path.join(base, `${name}-git`);
  execFileSync('git', ['init', '-q', '--bare', gd]);
  nativeTrack(gd, tree);
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
  if (x.name === 'gen100k') {
    // Without a watcher both walk the whole tree first (a walk of 100,000 files is itself several times 100 ms):
    // measured against native git's walk and diff (the watched rows hold the per-step target on this tree).
    const nativePatch = (): string => git(x.gd, x.tree, `diff-tree -r -p ${before} ${nativeTrack(x.gd, x.tree)}`);
    await pair(`patch (${diffs.length} files changed)`, 1.0, () => x.s.patch(before), nativePatch);
    await pair(`diff (${diffs.length} files changed)`, 1.0, () => x.s.diff(before), nativePatch);
  } else {
    absolute(`patch (${diffs.length} files changed)`, await medianOf(() => x.s.patch(before)), 100);
    absolute(`diff (${diffs.length} files changed)`, await medianOf(() => x.s.diff(before)), 100);
  }
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
  const reps = x.name === 'gen2k' ? REPS : 3;
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
  const x = WATCH_ONLY ? await firstTracks(name, tree, base) : await benchTracks(name, tree, base);
  const targets = (await x.s.listFiles(await x.s.track())).filter((f) => f.mode === '100644').map((f) => f.path);
  const touched = targets.filter((_, i) => i % Math.floor(targets.length / 10) === 0).slice(0, 10);
  const listed = `listFiles (${targets.length} regular files)${peakSoFar()}`;
  results.push(listed);
  console.log(listed);
  if (!QUICK && !WATCH_ONLY) {
    if (!RESTORE_ONLY) await benchChanges(x, touched);
    await benchRestores(x, touched);
  }
  await x.s.close();
  if (!QUICK && !RESTORE_ONLY && name !== 'gen2k')
    await benchWatched(name, tree, { data: x.data, gitdir: x.s.gitdir }, x.gd, touched);
  console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(0)} s)${peakSoFar()}`);
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'landfall-snapbench-'));
  const t0 = performance.now();
  try {
    const gen = path.join(base, 'gen2k');
    if (!QUICK && !WATCH_ONLY && !BIG_ONLY) {
      genTree(gen);
      await benchTree('gen2k', gen, base);
    }
    if (!BIG_ONLY) {
      const nm = path.join(base, 'nm');
      const copied = copyModules(path.resolve(process.cwd(), 'node_modules'), nm, 20_500);
      console.log(`copied ${copied} files of node_modules`);
      await benchTree('nm', nm, base);
    }
    const big = path.join(base, 'gen100k');
    const t = performance.now();
    const folders = genBigTree(big);
    console.log(
      `generated 100,000 files in ${folders} folders holding files (${((performance.now() - t) / 1000).toFixed(0)} s)`,
    );
    await benchTree('gen100k', big, base);
    if (!QUICK) rssRows(big, base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  // For information: the store's own peaks are the rows above (each operation in a process of its own).
  const line = `peak RSS of this benchmark process ${peakMb.toFixed(0)} MB (generator, native git's reads and several stores in one process)`;
  results.push(line);
  console.log(`\n== summary (medians of ${REPS}, alternating; machine shared and under load) ==`);
  for (const r of results) console.log(r);
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; targets missed: ${tally.failures}`);
}

await main();
