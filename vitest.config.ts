import { defineConfig } from 'vitest/config';

/** Unit and integration suite: tests sit beside the code (`*.test.ts`). End-to-end specs live in e2e/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    pool: 'forks',
    // Two forks even on a 2-core machine (vitest's default is cores − 1: one): many tests wait on child processes,
    // language servers and the disk, so a second fork overlaps those waits. The suite then takes ~6.5 min instead
    // of ~8.5 min here; every test waits on events, not clocks, so a busy machine slows it but does not fail it.
    maxWorkers: 2,
    // A timeout guards against a hang; it is not a measure of speed. CPU-heavy tests (300-step sessions, kill
    // runs, race loops) take three times as long on a busy machine — with the end-to-end suite beside this one
    // (npm test) some take 35 s — so the budget is wide.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    passWithNoTests: false,
    reporters: ['default'],
  },
});
