import { defineConfig } from 'vitest/config';

// Test files talk to real engines (PGlite, Postgres, Redis, chDB, sharp); a 2-core machine
// runs them best a few at a time with generous timeouts.
export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (index.js) and ESM (index.mjs) builds. Node, and so graphql-yoga, load
    // the CJS one; Vite would resolve our bare imports to the ESM one — two copies, and "Cannot use
    // GraphQLSchema from another module or realm". Pin every import to the one Node loads.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'dist-bench/**', 'data/**', 'test/chaos/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
