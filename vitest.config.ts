import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
