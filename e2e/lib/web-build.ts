import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { WEB_DIR, WEB_DIST } from './paths';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds apps/web when dist is missing or older than its sources, so a spec never tests a stale build. */
export function ensureWebBuild(): void {
  const index = path.join(WEB_DIST, 'index.html');
  const sources = Math.max(
    newestMtime(path.join(WEB_DIR, 'src')),
    newestMtime(path.join(WEB_DIR, 'public')),
    statSync(path.join(WEB_DIR, 'index.html')).mtimeMs,
    statSync(path.join(WEB_DIR, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: WEB_DIR, stdio: 'inherit' });
}
