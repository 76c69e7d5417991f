/**
 * The watched rows of the snapshot benchmark (snapshot.bench.ts): a generated 100,000-file tree (a monorepo of
 * source-like files in ~43,000 folders 3–7 deep, sizes from ~100 bytes to ~40 KB, most under 2 KB),
 * and on each tree a store with the watcher (src/main/snapshot/watch.ts) against native git:
 *   - no-change track, and track after 10 touched + 2 added files (watched), alternating with
 *     `git add -A && git write-tree`;
 *   - a full step's snapshot overhead (before track + after track + `changed` for the patch part) with ≤ 10 files
 *     changed in the step; steps are 600 ms apart (a model's answer takes longer; the watcher batches events
 *     that arrive within 500 ms of each other, so back-to-back steps would measure its batching instead); the wait
 *     for the watcher to report (settle) is shown beside it;
 *   - the watcher's own cost: subscription start time and resident memory it adds.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SnapshotStore } from '../src/main/snapshot';
import { TreeWatcher } from '../src/main/snapshot/watch';
import { absolute, codeLine, median, nativeTrack, pair, report, results, rng } from './snapshot-common';

/** Writes `files` source-like files under `root` (deterministic). Returns the number of folders made. */
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

/** Watched rows on `tree` (its stat cache in `data` is reused), anchored on the native git dir `gd`. */
export async function benchWatched(
  name: string,
  tree: string,
  data: string,
  gd: string,
  touched: string[],
): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const probe = await TreeWatcher.start(tree);
  const startMs = performance.now() - t0;
  const rssMb = (process.memoryUsage().rss - rss0) / 1e6;
  await probe?.close();
  results.push(`${name}: watcher start ${startMs.toFixed(0)} ms, +${rssMb.toFixed(0)} MB resident`);
  console.log(results[results.length - 1]);
  const w = await SnapshotStore.open({
    worktree: tree,
    dataDir: data,
    ignoreDefaults: [],
    log: () => undefined,
    watch: true,
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
  for (let step = 0; step < 9; step++) {
    await sleep(600);
    const s0 = performance.now();
    const before = await w.track();
    let waited = w.lastSettleMs;
    const s1 = performance.now();
    touch(8);
    const s2 = performance.now();
    const after = await w.track();
    waited += w.lastSettleMs;
    const changed = await w.changed(before, after);
    if (changed.length !== 10) throw new Error(`step changed ${changed.length} files, expected 10`);
    overhead.push(s1 - s0 + (performance.now() - s2));
    settle.push(waited);
  }
  absolute('step snapshot overhead (10 files)', median(overhead), 5);
  report('  of which waiting for the watcher', median(settle), undefined, undefined);
  await w.close();
}
