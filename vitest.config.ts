import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Files at a time. Vitest's default, one less than the cores, is one on a 2-core machine, where
    // a serial run kept 0.77 of a core busy: most server test files wait (timers, SMPP round trips,
    // PostgreSQL). With 2, the server project took 401 s (1.4 cores busy) on 2026-12-02
    // (docs/benchmarks.md, "Test suite"). VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
    projects: [
      {
        test: {
          name: 'server',
          root: './',
          include: [
            'apps/server/src/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
          ],
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
