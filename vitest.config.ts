import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Two cores on the CI machine: the forks pool keeps workers isolated (servers, child processes).
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
