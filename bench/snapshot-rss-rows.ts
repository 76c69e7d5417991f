/**
 * The peak-RSS rows of the snapshot benchmark (snapshot.bench.ts): each store operation on the 100,000-file tree
 * runs in a process of its own (snapshot-rss.ts), so its peak is the store's — as in the app, whose store runs one
 * project's operations — and not the high-water mark of this benchmark process, which has also generated the tree,
 * held other stores and read native git's results. Phases: first track of a fresh store, no-change track +
 * listFiles, repeated no-change tracks, full restore into the emptied tree, and a store with the watcher taking
 * a verifying track and steps of 10 changed files. Target: ≤ 500 MB each.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { results, tally } from './snapshot-common';

const PHASES = ['first', 'list', 'tracks', 'restore', 'watch'] as const;
const LIMIT_MB = 500;

/** Runs every phase on `tree` (a scratch store under `base`) and adds one row per phase to the results. */
export function rssRows(tree: string, base: string): void {
  const dir = path.join(base, 'rss-probe');
  mkdirSync(dir, { recursive: true });
  symlinkSync(tree, path.join(dir, 'tree'));
  for (const phase of PHASES) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.resolve('bench/snapshot-rss.ts'), dir, phase],
      { encoding: 'utf8', maxBuffer: 16 << 20 },
    );
    const peaks = [...out.matchAll(/ peak +(\d+)/g)].map((m) => Number(m[1]));
    if (peaks.length === 0) throw new Error(`rss probe ${phase} printed no peak:\n${out}`);
    const peak = Math.max(...peaks);
    const ok = peak <= LIMIT_MB ? 'OK  ' : 'MISS';
    if (ok === 'MISS') tally.failures++;
    const line =
      `peak RSS, ${phase} (own process)`.padEnd(34) +
      ` ours ${String(peak).padStart(9)} MB  target ≤${LIMIT_MB} MB ${ok}`;
    results.push(line);
    console.log(line);
  }
}
