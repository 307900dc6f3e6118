import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { pageKind } from './web-app';

/** A web build's index.html and manifest, shaped like Vite's (apps/web/vite.config.ts). */
const HTML = [
  '<!doctype html><html><head><title>Wren</title>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-1.js">',
  '<link rel="modulepreload" crossorigin href="/assets/app-1.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  '</head><body><div id="root"></div></body></html>',
].join('');

const MANIFEST = {
  'index.html': {
    file: 'assets/index-1.js',
    isEntry: true,
    imports: ['_app-1.js'],
    css: ['assets/index-1.css'],
  },
  '_app-1.js': { file: 'assets/app-1.js', imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  'src/app/render.tsx': { file: 'assets/render-1.js', isEntry: true, imports: ['_app-1.js'] },
  'src/app/session-check.ts': { file: 'assets/session-check-1.js', isEntry: true, imports: ['_app-1.js'] },
  'src/app/layout/main-layout.tsx': {
    file: 'assets/main-layout-1.js',
    isEntry: true,
    imports: ['_app-1.js', '_react-1.js'],
    css: ['assets/main-layout-1.css'],
  },
  'src/features/dashboard/pages/dashboard-page.tsx': {
    file: 'assets/dashboard-page-1.js',
    isEntry: true,
    imports: ['src/app/layout/main-layout.tsx', '_app-1.js'],
    css: ['assets/dashboard-page-1.css'],
    dynamicImports: ['src/features/dashboard/components/chart.tsx'],
  },
  'src/features/dashboard/components/chart.tsx': { file: 'assets/chart-1.js', isDynamicEntry: true },
};

let server: TestServer;
beforeAll(async () => {
  const dataDir = path.join(process.env.TMPDIR ?? '/tmp', `wren-web-preload-${process.pid}-${Date.now()}`);
  const dist = path.join(dataDir, 'dist');
  mkdirSync(path.join(dist, '.vite'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), HTML);
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  server = await startServer({ WEB_DIST: dist });
});
afterAll(() => server?.close());

async function page(url: string, acceptEncoding = 'gzip, deflate, br') {
  const res = await fetch(`${server.url}${url}`, {
    headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
  });
  const html = await res.text();
  const preloads = [...html.matchAll(/<link rel="(modulepreload|preload)"[^>]*href="\/([^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  return { res, html, preloads };
}

const APP = ['modulepreload assets/render-1.js', 'modulepreload assets/session-check-1.js'];
const LAYOUT = ['modulepreload assets/main-layout-1.js', 'preload assets/main-layout-1.css'];
const DASHBOARD = ['modulepreload assets/dashboard-page-1.js', 'preload assets/dashboard-page-1.css'];
/** What index.html names itself. */
const BUILT_IN = ['modulepreload assets/react-1.js', 'modulepreload assets/app-1.js'];

describe('the page preloads the chunks main.tsx imports at once for its address', () => {
  it('/dashboard and /: the app, the signed-in layout and the dashboard page, not what loads later', async () => {
    for (const url of ['/dashboard', '/']) {
      const { res, html, preloads } = await page(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(preloads.sort()).toEqual([...BUILT_IN, ...APP, ...LAYOUT, ...DASHBOARD].sort());
      // Once each (index.html's own preloads are not repeated), inside <head>, and no lazy chunk.
      expect(html.match(/react-1\.js/g)).toHaveLength(1);
      expect(html.indexOf('dashboard-page-1.js')).toBeLessThan(html.indexOf('</head>'));
      expect(html).not.toContain('chart-1.js');
    }
  });

  it('another signed-in page: the app and the layout; a visitor page (/auth): the app only', async () => {
    expect((await page('/groups/12/contacts')).preloads.sort()).toEqual(
      [...BUILT_IN, ...APP, ...LAYOUT].sort(),
    );
    expect((await page('/auth/login')).preloads.sort()).toEqual([...BUILT_IN, ...APP].sort());
    expect((await page('/auth')).preloads.sort()).toEqual([...BUILT_IN, ...APP].sort());
    // Only /auth and /auth/... are visitor pages.
    expect((await page('/authors')).preloads).toContain('modulepreload assets/main-layout-1.js');
  });

  it('is compressed as the client accepts, with Vary: Accept-Encoding, and sets the XSRF cookie', async () => {
    const br = await page('/dashboard', 'gzip, br');
    expect(br.res.headers.get('content-encoding')).toBe('br');
    expect(br.res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(br.res.headers.get('set-cookie')).toMatch(/XSRF-TOKEN=/);
    const gzip = await page('/dashboard', 'gzip');
    expect(gzip.res.headers.get('content-encoding')).toBe('gzip');
    const plain = await page('/dashboard', 'identity');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    // The same page whatever the encoding.
    expect(gzip.html).toBe(br.html);
    expect(plain.html).toBe(br.html);
  });
});

describe('pageKind', () => {
  it('follows main.tsx: /auth pages are for visitors, / and /dashboard show the dashboard', () => {
    expect(pageKind('/auth/login')).toBe('visitor');
    expect(pageKind('/auth')).toBe('visitor');
    expect(pageKind('/dashboard')).toBe('dashboard');
    expect(pageKind('/')).toBe('dashboard');
    expect(pageKind('/dashboard/x')).toBe('signedIn');
    expect(pageKind('/sms/log')).toBe('signedIn');
  });
});
