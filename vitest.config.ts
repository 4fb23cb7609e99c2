import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here: a few files at a time keeps Chromium and Knot tests from starving each other.
    maxWorkers: 3,
    pool: 'forks',
    reporters: ['default'],
  },
});
