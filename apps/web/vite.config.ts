import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress.ts';

const backend = process.env.WREN_API_URL ?? 'http://localhost:3000';

/**
 * The SPA has its own pages under /api (the API list, /api/create, ...). A browser navigation
 * (Accept: text/html) is answered with index.html; XHR/fetch calls go to the server.
 */
function spaNavigation(req: IncomingMessage): string | undefined {
  const accept = req.headers.accept ?? '';
  return req.method === 'GET' && accept.includes('text/html') ? '/index.html' : undefined;
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: false, bypass: spaNavigation },
      '/hub': { target: backend, ws: true },
    },
  },
  build: {
    rolldownOptions: {
      treeshake: {
        // @wren/contracts is declarations only (schemas, constants); let unused parts, such as the
        // zod schemas that only the form pages use, drop out of the first load.
        moduleSideEffects: [{ test: /[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/, sideEffects: false }],
        // Building a zod schema has no side effects: a schema no page uses drops out even when its
        // module stays for a constant (an API path), so zod itself leaves the first load.
        manualPureFunctions: ['z', 'safeString', 'pageCursorSchema', 'fileResponse'],
      },
    },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
