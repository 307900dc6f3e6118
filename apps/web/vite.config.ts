import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
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

/**
 * Mantine's ScrollArea (so every table too) takes one small hook from @floating-ui/react, which
 * would bring that whole library into the first load; src/lib/merge-refs.ts gives it the same hook.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const shim = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));
  return {
    name: 'wren:scroll-area-merge-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@floating-ui/react' || !importer) return null;
      return /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/.test(importer) ? shim : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), scrollAreaWithoutFloatingUi()],
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
    // dist/.vite/manifest.json: which chunks each page needs (the bundle-budget test reads it).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // @wren/contracts is declarations only (schemas, constants); let unused parts, such as the
        // zod schemas that only the form pages use, drop out of the first load.
        moduleSideEffects: [{ test: /[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/, sideEffects: false }],
        // Building a zod schema has no side effects: a schema no page uses drops out even when its
        // module stays for a constant (an API path), so zod itself leaves the first load.
        manualPureFunctions: ['z', 'safeString', 'pageCursorSchema', 'fileResponse'],
      },
      output: {
        codeSplitting: {
          groups: [
            // React and the router change only on an upgrade: a deploy leaves this chunk cached.
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 2,
            },
            // The live-update hub's library, loaded with its first connection (lib/hub/lazy-socket.ts).
            {
              name: 'socket.io',
              test: /[\\/]node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/,
              priority: 1,
            },
            // Positioning for menus, popovers and tooltips, which load on first use: kept apart, or
            // the bundler would pack it into a shared chunk of the first load.
            {
              name: 'floating-ui',
              test: /[\\/]node_modules[\\/]@floating-ui[\\/](react|react-dom|core|dom)[\\/]/,
              // Its small DOM helpers (@floating-ui/utils), which the scroll area uses too, stay out.
              includeDependenciesRecursively: false,
              priority: 1,
            },
          ],
        },
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
