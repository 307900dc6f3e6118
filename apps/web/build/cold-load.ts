import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/**
 * The source modules whose chunks a cold /dashboard loads: the entry (index.html), and what
 * src/main.tsx imports at once for that address (the app, the signed-in layout, the page).
 */
export const COLD_DASHBOARD_ROOTS = [
  'index.html',
  'src/app/render.tsx',
  'src/app/layout/main-layout.tsx',
  'src/features/dashboard/pages/dashboard-page.tsx',
];

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
