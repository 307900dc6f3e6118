import path from 'node:path';
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

/**
 * The chunks of the first load, by the module graph. Left to itself the bundler cuts a cold
 * /dashboard into ~55 files (every Mantine component or helper that another page shares is a chunk
 * of its own), and Chromium fetches 6 at a time over HTTP/1.1: the last one lands ~700 ms after the
 * first. Grouping by hand by library (earlier attempts) moved code other pages use into the first
 * load. Here a module joins a first-load chunk only if the first load runs it anyway:
 * - `app`: what src/app/render.tsx and src/app/session-check.ts import, at once and through their
 *   imports (every address loads these two);
 * - `layout`: what the signed-in layout imports beyond that (every signed-in page loads it);
 * - `dashboard`: what the dashboard page imports beyond both.
 * Modules that load later (route pages, charts, the hub's socket.io) stay in the bundler's chunks.
 * The sets are the static-import closures of those roots, taken from the module graph at the end
 * of the build (rolldown asks a group's `test` only after that).
 */
const FIRST_LOAD_ROOTS: [name: string, roots: string[]][] = [
  ['app', ['src/app/render.tsx', 'src/app/session-check.ts']],
  ['layout', ['src/app/layout/main-layout.tsx']],
  ['dashboard', ['src/features/dashboard/pages/dashboard-page.tsx']],
];

function firstLoadChunks(): { plugin: Plugin; chunkOf: (id: string) => string | null } {
  const chunkByModule = new Map<string, string>();
  const root = fileURLToPath(new URL('.', import.meta.url));
  const plugin: Plugin = {
    name: 'wren:first-load-chunks',
    apply: 'build',
    buildEnd() {
      chunkByModule.clear();
      for (const [name, roots] of FIRST_LOAD_ROOTS) {
        const queue = roots.map((file) => path.join(root, file));
        while (queue.length) {
          const id = queue.pop()!;
          if (chunkByModule.has(id)) continue;
          const info = this.getModuleInfo(id);
          if (!info) throw new Error(`first-load chunks: ${id} is not in the build`);
          chunkByModule.set(id, name);
          queue.push(...info.importedIds);
        }
      }
    },
  };
  return { plugin, chunkOf: (id) => chunkByModule.get(id) ?? null };
}

const firstLoad = firstLoadChunks();

/** index.html and the first load's roots, as build inputs (name → file). */
function firstLoadInputs(): Record<string, string> {
  const input: Record<string, string> = { index: fileURLToPath(new URL('./index.html', import.meta.url)) };
  for (const [, roots] of FIRST_LOAD_ROOTS) {
    for (const file of roots)
      input[path.basename(file).replace(/\.tsx?$/, '')] = fileURLToPath(new URL(file, import.meta.url));
  }
  return input;
}

export default defineConfig({
  plugins: [react(), precompress(), scrollAreaWithoutFloatingUi(), firstLoad.plugin],
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
    // No modulepreload polyfill in the entry (~300 B gzip of the first load): every browser of the
    // build target but Safari 16 and Firefox < 115 preloads natively, and those still load each chunk
    // when it is imported, only without the head start.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The first load's roots are entries too, so the bundler tags what they import ($initial).
      input: firstLoadInputs(),
      treeshake: {
        // @wren/contracts is declarations only (schemas, constants); let unused parts, such as the
        // zod schemas that only the form pages use, drop out of the first load.
        moduleSideEffects: [{ test: /[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/, sideEffects: false }],
        // Building a zod schema has no side effects: a schema no page uses drops out even when its
        // module stays for a constant (an API path), so zod itself leaves the first load. The contracts'
        // own schema factories are listed too: one call not marked pure in a schema keeps all of zod
        // (20 KB gzip; the bundle-budget test caught timeZoneField and messageTextField).
        manualPureFunctions: [
          'z',
          'safeString',
          'pageCursorSchema',
          'fileResponse',
          'timeZoneField',
          'messageTextField',
        ],
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
            // The first load's own code and libraries, in three chunks (firstLoadChunks above).
            {
              debugName: 'first-load',
              name: (id) => firstLoad.chunkOf(id),
              test: (id) => firstLoad.chunkOf(id) !== null,
              includeDependenciesRecursively: false,
              tags: ['$initial'],
              priority: 1,
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
