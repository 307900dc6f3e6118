import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Files at a time. Vitest's default, one less than the cores, is one on a 2-core machine, where
    // a serial run kept 0.77 of a core busy: most server test files wait (timers, SMPP round trips,
    // PostgreSQL). 3 at a time took the stage from 1810 to 1195 s but, on a loaded machine, made
    // crash.test's worker process miss its 20 s start-up deadline; 2 is the default until measured
    // (docs/benchmarks.md, "Test suite"). VITEST_MAX_WORKERS overrides it.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          root: './',
          include: ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          globalSetup: ['apps/server/test/global-setup.ts'],
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
