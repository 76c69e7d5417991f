/**
 * Memory probe of the snapshot store on the generated 100,000-file tree (snapshot-watch.ts genBigTree): one phase
 * per process, so each phase's peak RSS is its own. `npx tsx --expose-gc bench/snapshot-rss.ts <dir> <phase>`:
 *   gen      generate the tree at <dir>/tree (once);
 *   first    fresh store at <dir>/data, first track (removes an old store first);
 *   list     open the store, no-change track, listFiles of that tree;
 *   tracks   open the store, no-change track PROBE_TRACKS times (default 8);
 *   restore  open the store, empty the tree, full restore (the tree is the same afterwards);
 *   watch    open the store with the watcher (default backend), verifying track, then PROBE_TRACKS steps (default 8)
 *            of 10 changed files each (a store as a session holds it).
 * Prints, after each step and after a GC: RSS, heapUsed, arrayBuffers, external (MB) and the peak RSS so far.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { SnapshotStore } from '../src/main/snapshot';
import { genBigTree } from './snapshot-watch';

const PHASES = ['gen', 'first', 'list', 'tracks', 'restore', 'watch'];
const [dir, phase] = process.argv.slice(2) as [string | undefined, string | undefined];
if (!dir || !phase || !PHASES.includes(phase)) {
  console.error(
    `usage: npx tsx --expose-gc bench/snapshot-rss.ts <dir> ${PHASES.join('|')} (gen first: it makes <dir>/tree)`,
  );
  process.exit(2);
}
const tree = path.join(dir, 'tree');
const data = path.join(dir, 'data');
const mb = (n: number): string => (n / 1e6).toFixed(0).padStart(5);
const gc = (globalThis as { gc?: () => void }).gc;

/** With PROBE_SMAPS=1: the mappings of this process by resident size (heap, anonymous, file), largest first. */
function smaps(label: string): void {
  if (!process.env.PROBE_SMAPS) return;
  const text = readFileSync('/proc/self/smaps', 'utf8');
  const maps: { name: string; size: number; rss: number }[] = [];
  let cur: { name: string; size: number; rss: number } | undefined;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { name: head[3] || '[anon]', size: (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1024, rss: 0 };
      maps.push(cur);
    } else if (cur && line.startsWith('Rss:')) cur.rss = Number(line.split(/\s+/)[1]);
  }
  const byName = new Map<string, { n: number; rss: number }>();
  for (const m of maps) {
    const k = m.name.startsWith('/') ? 'file' : m.name;
    const b = byName.get(k) ?? { n: 0, rss: 0 };
    b.n++;
    b.rss += m.rss;
    byName.set(k, b);
  }
  console.log(
    `  smaps ${label}: ${[...byName].map(([k, b]) => `${k} ${(b.rss / 1024).toFixed(0)} MB/${b.n}`).join(', ')}`,
  );
  const big = maps
    .filter((m) => m.rss > 4096)
    .sort((a, b) => b.rss - a.rss)
    .slice(0, 25);
  for (const m of big)
    console.log(
      `    ${m.name.padEnd(12)} size ${(m.size / 1024).toFixed(1).padStart(7)} MB rss ${(m.rss / 1024).toFixed(1).padStart(7)} MB`,
    );
}

function show(label: string, ms?: number): void {
  const m = process.memoryUsage();
  const peak = (process.resourceUsage().maxRSS * 1024) / 1e6;
  const t = ms === undefined ? '' : ` ${(ms / 1000).toFixed(2)} s`;
  console.log(
    `${label.padEnd(22)} rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} ab ${mb(m.arrayBuffers)} ext ${mb(m.external)} peak ${peak.toFixed(0).padStart(5)}${t}`,
  );
}

async function step<T>(label: string, fn: () => Promise<T> | T): Promise<T> {
  const t0 = performance.now();
  const v = await fn();
  show(label, performance.now() - t0);
  if (gc) {
    gc();
    show(`  after gc`);
  }
  smaps(label);
  return v;
}

/**
 * With PROBE_SAMPLE=<MB>: every progress report samples memory; the first time arrayBuffers exceed <MB>, a GC
 * shows how much of them was live.
 */
const sampleAt = Number(process.env.PROBE_SAMPLE ?? 0) * 1e6;
/** With PROBE_SAMPLE_HEAP=<MB>: the same when the JS heap's used size exceeds <MB>. */
const sampleHeapAt = Number(process.env.PROBE_SAMPLE_HEAP ?? 0) * 1e6;
let sampled = false;
const progress = (): void => {
  if ((!sampleAt && !sampleHeapAt) || sampled) return;
  const m = process.memoryUsage();
  if ((!sampleAt || m.arrayBuffers < sampleAt) && (!sampleHeapAt || m.heapUsed < sampleHeapAt)) return;
  sampled = true;
  show('  sample');
  gc?.();
  show('  sample after gc');
  if (process.env.PROBE_HEAP) console.log(`heap snapshot ${writeHeapSnapshot(process.env.PROBE_HEAP)}`);
};

const open = (): Promise<SnapshotStore> =>
  SnapshotStore.open({ worktree: tree, dataDir: data, ignoreDefaults: [], log: () => undefined, progress });

show('start');
if (phase === 'gen') {
  rmSync(tree, { recursive: true, force: true });
  console.log(`${genBigTree(tree)} folders holding files`);
} else if (phase === 'first') {
  rmSync(data, { recursive: true, force: true });
  const s = await step('open', open);
  console.log(await step('first track', () => s.track()));
  await s.close();
} else if (phase === 'list') {
  const s = await step('open', open);
  const t = await step('no-change track', () => s.track());
  const files = await step('listFiles', () => s.listFiles(t));
  console.log(files.length);
  await s.close();
} else if (phase === 'tracks') {
  // Repeated full walks on one store (the benchmark's no-change and step tracks): does each one keep more?
  const s = await step('open', open);
  for (let i = 0; i < Number(process.env.PROBE_TRACKS ?? 8); i++) await step(`no-change track ${i}`, () => s.track());
  await s.close();
} else if (phase === 'restore') {
  const s = await step('open', open);
  const t = await step('no-change track', () => s.track());
  for (const n of readdirSync(tree)) rmSync(path.join(tree, n), { recursive: true, force: true });
  show('emptied');
  const r = await step('full restore', () => s.restore(t));
  console.log(`restored ${r.restored.length} failed ${r.failed.length}`);
  const again = await step('track after restore', () => s.track());
  console.log(again === t ? 'same tree' : `DIFFERENT tree ${again} vs ${t}`);
  await s.close();
} else if (phase === 'watch') {
  const s = await step('open watched', () =>
    SnapshotStore.open({ worktree: tree, dataDir: data, ignoreDefaults: [], log: () => undefined, watch: true }),
  );
  const t = await step('verifying track', () => s.track({ verify: true }));
  const files = (await s.listFiles(t)).filter((f) => f.mode === '100644').map((f) => f.path);
  const picked = files.filter((_, i) => i % Math.floor(files.length / 10) === 0).slice(0, 10);
  for (let i = 0; i < Number(process.env.PROBE_TRACKS ?? 8); i++) {
    for (const f of picked) appendFileSync(path.join(tree, f), `// probe ${i}\n`);
    await step(`step track ${i}`, () => s.track());
  }
  await s.close();
}
show('end');
if (process.env.PROBE_PAUSE) {
  // For a debugger to attach (gdb -p <pid>: malloc_stats, malloc_trim): waits until stdin closes.
  console.log(`pid ${process.pid} paused`);
  await new Promise((r) => process.stdin.on('end', r).resume());
}
