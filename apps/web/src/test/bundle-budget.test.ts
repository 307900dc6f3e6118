import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  COLD_DASHBOARD_BUDGET_GZIP,
  coldDashboardChunks,
  gzipSize,
  readManifest,
} from '../../build/cold-load';

const WEB_DIR = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(WEB_DIR, 'dist');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

let tempDist: string | undefined;

/** dist when it is newer than the sources; otherwise a fresh build in a temporary directory. */
function currentBuild(): string {
  const index = path.join(DIST, 'index.html');
  const sources = Math.max(
    newestMtime(path.join(WEB_DIR, 'src')),
    statSync(path.join(WEB_DIR, 'index.html')).mtimeMs,
    statSync(path.join(WEB_DIR, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return DIST;
  tempDist = mkdtempSync(path.join(tmpdir(), 'wren-web-budget-'));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', tempDist, '--emptyOutDir'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
    // vitest sets NODE_ENV=test, which would make a development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return tempDist;
}

afterAll(() => {
  if (tempDist) rmSync(tempDist, { recursive: true, force: true });
});

/** The entry script and modulepreloaded chunks named in index.html. */
function initialScripts(html: string): string[] {
  const entry = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  return [...new Set([...entry, ...preloads])];
}

describe('bundle budget', () => {
  it(`a cold /dashboard loads at most ${COLD_DASHBOARD_BUDGET_GZIP / 1024} KB gzip of JS`, () => {
    const dist = currentBuild();
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const files = coldDashboardChunks(readManifest(dist));
    // The manifest's entry is the script index.html runs.
    for (const entry of initialScripts(html)) expect(files).toContain(entry);
    const sizes = files.map((file) => ({ file, gzip: gzipSize(dist, file) })).sort((a, b) => b.gzip - a.gzip);
    const total = sizes.reduce((n, s) => n + s.gzip, 0);
    const report = sizes.map((s) => `${(s.gzip / 1024).toFixed(1)} KB ${s.file}`).join('\n');
    expect(
      total,
      `cold /dashboard JS ${(total / 1024).toFixed(1)} KB gzip in ${files.length} files:\n${report}`,
    ).toBeLessThanOrEqual(COLD_DASHBOARD_BUDGET_GZIP);
    // The floating parts of the header (menus, popovers, tooltips) load on first use only.
    expect(files.filter((file) => /floating-ui|Popover|Tooltip|Menu-/.test(file))).toEqual([]);
    // The precompressed copies the server sends are there for every initial script but the tiny
    // ones (build/precompress.ts skips files under 1 KB: a copy saves less than its headers cost).
    for (const file of files) {
      if (statSync(path.join(dist, file)).size < 1024) continue;
      expect(existsSync(path.join(dist, `${file}.br`)), `${file}.br`).toBe(true);
      expect(existsSync(path.join(dist, `${file}.gz`)), `${file}.gz`).toBe(true);
    }
  }, 120_000);

  it('reads the entry and modulepreloads from index.html', () => {
    const html =
      '<script type="module" crossorigin src="/assets/index-a.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/Loader-b.js">' +
      '<link rel="stylesheet" crossorigin href="/assets/index-c.css">';
    expect(initialScripts(html)).toEqual(['assets/index-a.js', 'assets/Loader-b.js']);
  });
});
