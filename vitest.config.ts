import { defineConfig } from 'vitest/config';

const tests = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'];
const renderer = ['src/renderer/**'];

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
        // folders, stores and services; none installs a global the next file would see.
        test: { name: 'main', include: tests, exclude: renderer, isolate: false },
      },
      {
        extends: true,
        // The renderer's store tests each install their own `window.landfall` door, which rpc/ takes once per
        // module graph (as the app does): each file gets its own graph.
        test: { name: 'renderer', include: ['src/renderer/**/*.test.ts', 'src/renderer/**/*.test.tsx'] },
      },
    ],
  },
});
