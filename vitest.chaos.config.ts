import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The fault suite (test/chaos/) starts its own Postgres, Redis and product processes and runs
// once per CI run, apart from the two stacks of the main suite.
export default defineConfig({
  resolve: base.resolve,
  test: { include: ['test/chaos/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 240_000, pool: 'forks', maxWorkers: 1 },
});
