import { defineConfig } from 'vitest/config';

/**
 * End-to-end suite: the web host (`serve()`), real services in a temp data folder, and Debian's Chromium driven by
 * playwright-core. One fork, files in sequence: a browser is heavy on a 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    pool: 'forks',
    fileParallelism: false,
    // One module graph for every file (no per-file re-import of the services: ~90 s of CPU less per run). Each file
    // opens its own web host on its own temp data folder (harness.ts), so no test reads another file's state.
    isolate: false,
    testTimeout: 180_000, // a guard against a hang: beside the vitest suite (npm test) a file takes twice as long
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
