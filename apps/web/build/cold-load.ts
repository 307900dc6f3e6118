import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The size budget of a cold /dashboard, gzip level 9: every JS file the browser loads for it.
 * `npm run bench:web` measured 236.1 KB gzip in 57 files on 2026-11-24 (morning), and 195.5 KB in 9
 * files once axios was gone and the first load was grouped into a few chunks (vite.config.ts). The
 * budget is the goal, 200 KB. Lower it as the first load shrinks; raise it only on purpose. Checked by apps/web/src/test/bundle-budget.test.ts (from the build manifest) and
 * e2e/specs/bundle-budget.spec.ts (in Chromium, that the manifest's list is what a browser loads).
 */
export const COLD_DASHBOARD_BUDGET_GZIP = 200 * 1024;

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/**
 * The source modules whose chunks a cold /dashboard loads: the entry (index.html), and what
 * src/main.tsx imports at once for that address (the app, the session check, the signed-in layout,
 * the page).
 */
export const COLD_DASHBOARD_ROOTS = [
  'index.html',
  'src/app/render.tsx',
  'src/app/session-check.ts',
  'src/app/layout/main-layout.tsx',
  'src/features/dashboard/pages/dashboard-page.tsx',
];

/**
 * What a cold /dashboard loads by dynamic import while it starts, matched on a chunk's manifest key
 * or file: the live-update hub's library (vite.config.ts's `socket.io` chunk), which loads with the
 * hub's first connection (lib/hub/lazy-socket.ts).
 */
export const COLD_DASHBOARD_LAZY = [/socket\.io/];

/** Every JS file of a cold /dashboard: the roots, the lazy loads, and their static imports. */
export function coldDashboardChunks(manifest: Record<string, ManifestChunk>): string[] {
  const lazy = Object.keys(manifest).filter((key) =>
    COLD_DASHBOARD_LAZY.some((re) => re.test(key) || re.test(manifest[key].file)),
  );
  if (lazy.length !== COLD_DASHBOARD_LAZY.length)
    throw new Error('a lazy root of /dashboard is not in the manifest');
  return chunksOf(manifest, [...COLD_DASHBOARD_ROOTS, ...lazy]);
}

export function readManifest(dist: string): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
}

/** The JS files these roots need before they run: each root's chunk and its static imports. */
export function chunksOf(manifest: Record<string, ManifestChunk>, roots: string[]): string[] {
  const files = new Set<string>();
  const queue = [...roots];
  const seen = new Set<string>();
  while (queue.length) {
    const key = queue.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    queue.push(...(chunk.imports ?? []));
  }
  return [...files].sort();
}

/** gzip -9 size of a built file: its precompressed .gz copy, or compressed here (tiny files). */
export function gzipSize(dist: string, file: string): number {
  const full = path.join(dist, file);
  if (existsSync(`${full}.gz`)) return readFileSync(`${full}.gz`).length;
  return gzipSync(readFileSync(full), { level: 9 }).length;
}
