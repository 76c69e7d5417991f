import { defineConfig } from 'vitest/config';

/** Unit and integration suite: tests sit beside the code (`*.test.ts`). End-to-end specs live in e2e/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    passWithNoTests: false,
    reporters: ['default'],
  },
});
