import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here: a few files at a time keeps Chromium and Knot tests from starving each other.
    maxWorkers: 3,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // Unit files start no service and leave no state behind: one module graph per worker, not one per
        // file, halves their time (importing the sources was most of it). Checked with the files shuffled.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // Services, databases and browsers: each file in a fresh process, as a service would start.
        test: { name: 'services', include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'] },
      },
    ],
  },
});
