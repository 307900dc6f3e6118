import { defineConfig } from 'vitest/config';

// Standalone config: `npx vitest run --root packages/smsc-simulator`.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 10_000,
  },
});
