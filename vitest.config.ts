import { defineConfig } from 'vitest/config';

// Test files talk to real engines (PGlite, Postgres, Redis, chDB, sharp); a 2-core machine
// runs them best a few at a time with generous timeouts.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'data/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
