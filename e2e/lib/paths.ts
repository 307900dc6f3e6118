import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
export const WEB_DIR = path.join(REPO_ROOT, 'apps/web');
/** The built web app the test servers serve; E2E_WEB_DIST points at another build (`vite build --outDir`). */
export const WEB_DIST = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.join(WEB_DIR, 'dist');
export const SCREENSHOT_DIR = path.join(E2E_DIR, 'screenshots');
export const TMP_DIR = path.join(E2E_DIR, '.tmp');
