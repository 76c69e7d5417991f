/**
 * The watched rows of the snapshot benchmark (snapshot.bench.ts): a generated 100,000-file tree (a monorepo of
 * source-like files in ~43,000 folders 3–7 deep, sizes from ~100 bytes to ~40 KB, most under 2 KB),
 * and on each tree a store with the watcher (src/main/snapshot/watch.ts) against native git:
 *   - no-change track, and track after 10 touched + 2 added files (watched), alternating with
 *     `git add -A && git write-tree`;
 *   - a full step's snapshot overhead (before track + after track + `changed` for the patch part) with ≤ 10 files
 *     changed in the step; steps are 600 ms apart (a model's answer takes longer; parcel batches events that
 *     arrive within 500 ms of each other, so back-to-back steps would measure its batching instead); the wait for
 *     the watcher to report (settle) is shown beside it, and the CPU time of this process (every thread) for the
 *     same parts, which a busy machine inflates far less than wall time;
 *   - the watcher's own cost: start time, resident memory it adds, and the folders it watches.
 * The backend is the default one (native inotify on Linux); `--parcel` measures @parcel/watcher instead.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SnapshotStore } from '../src/main/snapshot';
import { loadStatCache } from '../src/main/snapshot/stat-cache';
import { defaultBackend, startWatcher } from '../src/main/snapshot/watch';
import { absolute, codeLine, median, nativeTrack, pair, report, results, rng } from './snapshot-common';

/** Steps measured for the step-overhead row. */
const STEPS = 25;

/** Writes `files` source-like files under `root` (deterministic). Returns the number of folders holding files. */
export function genBigTree(root: string, files = 100_000): number {
  const r = rng(7);
  const dirs = new Set<string>();
  for (let i = 0; i < files; i++) {
    const pkg = `packages/pkg${i % 40}`;
    const depth = 1 + Math.floor(r() * 5);
    const parts = [pkg, 'src'];
    for (let d = 0; d < depth; d++) parts.push(`m${Math.floor(r() * (d === 0 ? 12 : 4))}`);
    const dir = path.join(root, ...parts);
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    const lines: string[] = [];
    const n = 4 + Math.floor(r() * r() * r() * 1200);
    for (let l = 0; l < n; l++) lines.push(codeLine(r));
    writeFileSync(path.join(dir, `f${i}.ts`), `${lines.join('\n')}\n`);
  }
  return dirs.size;
}

/** `--parcel`: the watched rows with @parcel/watcher instead of the default backend. */
const BACKEND = process.argv.includes('--parcel') ? 'parcel' : defaultBackend();

/** CPU time (ms, user + system, every thread of this process) since `from`. */
const cpuMs = (from: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

/**
 * Watched rows on `tree` (its stat cache in store folder `gitdir` under `data` is reused), anchored on the native
 * git dir `gd`.
 */
export async function benchWatched(
  name: string,
  tree: string,
  store: { data: string; gitdir: string },
  gd: string,
  touched: string[],
): Promise<void> {
  const dirs = loadStatCache(join(store.gitdir, 'landfall-stat-cache.bin')).dirs;
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const probe = await startWatcher(tree, dirs, BACKEND);
  const startMs = performance.now() - t0;
  const startCpu = cpuMs(c0);
  const rssMb = (process.memoryUsage().rss - rss0) / 1e6;
  const watched = probe?.stats.watched ?? 0;
  await probe?.close();
  results.push(
    `${name}: ${BACKEND} watcher start ${startMs.toFixed(0)} ms (cpu ${startCpu.toFixed(0)} ms), ${rssMb >= 0 ? '+' : '−'}${Math.abs(rssMb).toFixed(0)} MB resident` +
      (BACKEND === 'native' ? `, ${watched} folders watched` : ''),
  );
  console.log(results[results.length - 1]);
  const w = await SnapshotStore.open({
    worktree: tree,
    dataDir: store.data,
    ignoreDefaults: [],
    log: () => undefined,
    watch: true,
    watchBackend: BACKEND,
  });
  if (!w.watching) throw new Error('the watcher did not start');
  await w.track({ verify: true });
  await pair(
    'watched no-change track',
    0.1,
    () => w.track(),
    () => nativeTrack(gd, tree),
  );
  let k = 0;
  const touch = (n: number): void => {
    k++;
    for (const f of touched.slice(0, n)) appendFileSync(path.join(tree, f), `// watched ${k}\n`);
    writeFileSync(path.join(tree, `w-added-a-${k}.ts`), `export const a = ${k};\n`);
    writeFileSync(path.join(tree, `w-added-b-${k}.ts`), `export const b = ${k};\n`);
  };
  await pair(
    'watched 10 touched + 2 added',
    0.2,
    () => w.track(),
    () => nativeTrack(gd, tree),
    () => touch(10),
  );
  const overhead: number[] = [];
  const settle: number[] = [];
  const cpu: number[] = [];
  const spliced: number[] = [];
  const listed: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    await sleep(600);
    const s0 = performance.now();
    const c0 = process.cpuUsage();
    const before = await w.track();
    let waited = w.lastSettleMs;
    const s1 = performance.now();
    const cpuBefore = cpuMs(c0);
    touch(8);
    const s2 = performance.now();
    const c2 = process.cpuUsage();
    const after = await w.track();
    waited += w.lastSettleMs;
    spliced.push(w.lastSpliced);
    listed.push(w.lastSplicedListed);
    const changed = await w.changed(before, after);
    if (changed.length !== 10) throw new Error(`step changed ${changed.length} files, expected 10`);
    overhead.push(s1 - s0 + (performance.now() - s2));
    cpu.push(cpuBefore + cpuMs(c2));
    settle.push(waited);
  }
  const spread = (xs: number[]): string => {
    const s = [...xs].sort((a, b) => a - b);
    return `min ${s[0]?.toFixed(1)}, max ${s[s.length - 1]?.toFixed(1)} ms over ${s.length} steps`;
  };
  absolute(`step snapshot overhead (10 files) [${spread(overhead)}]`, median(overhead), 5);
  report(`  of which cpu time [${spread(cpu)}]`, median(cpu), undefined, undefined);
  report('  of which waiting for the watcher', median(settle), undefined, undefined);
  report('  folders spliced (walk.ts splicedDir)', median(spliced), undefined, undefined, 'folders');
  report('  of which listed as before', median(listed), undefined, undefined, 'folders');
  await w.close();
}
