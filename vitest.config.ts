import { readdirSync, readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { defineConfig } from 'vitest/config';

const tests = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'];
const renderer = ['src/renderer/**'];
/**
 * Tests that start crash-test children (a child process SIGKILLed mid-operation: proc/test-child.ts `childArgs`,
 * agent/testing/run-and-kill.ts `runAndKill` or `CRASH_CHILD`), found by those names in their text. They run in
 * forks of their own, as every file did before the shared graph: in two clean-clone CI runs with them in the shared
 * forks a child hung before its READY (three of them, 60 s each), never in the runs before; not explained yet.
 */
const withChildren = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter(
    (f) => f.endsWith('.test.ts') && /\b(childArgs|runAndKill|CRASH_CHILD)\b/.test(readFileSync(`src/${f}`, 'utf8')),
  )
  .map((f) => `src/${f.split(sep).join('/')}`);

/** Unit and integration suite: tests sit beside the code (`*.test.ts`). End-to-end specs live in e2e/. */
export default defineConfig({
  test: {
    pool: 'forks',
    // Two forks even on a 2-core machine (vitest's default is cores − 1: one): many tests wait on child processes,
    // language servers and the disk, so a second fork overlaps those waits.
    maxWorkers: 2,
    // A timeout guards against a hang; it is not a measure of speed. CPU-heavy tests (300-step sessions, kill
    // runs, race loops) take three times as long on a busy machine — with the end-to-end suite beside this one
    // (npm test) some take 35 s — so the budget is wide.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    passWithNoTests: false,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // Main-process, engine and bench tests share one module graph per fork (isolate: false): re-importing the
        // services for each of ~200 files cost ~200 s of CPU, half the suite. Every test builds its own temp
        // folders, stores and services, and restores any environment variable it set.
        // What a module remembers for the whole process is reset after each file (src/main/proc/between-test-files.ts).
        test: {
          name: 'main',
          include: tests,
          exclude: [...renderer, ...withChildren],
          isolate: false,
          setupFiles: ['src/main/proc/between-test-files.ts'],
        },
      },
      { extends: true, test: { name: 'children', include: withChildren } },
      {
        extends: true,
        // The renderer's store tests each install their own `window.landfall` door, which rpc/ takes once per
        // module graph (as the app does): each file gets its own graph.
        test: { name: 'renderer', include: ['src/renderer/**/*.test.ts', 'src/renderer/**/*.test.tsx'] },
      },
    ],
  },
});
