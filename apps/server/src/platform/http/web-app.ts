import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC } from './route-auth';
import { ensureXsrfCookie } from './xsrf';

const API_PREFIXES = ['/api/', '/v1/', '/hub', '/healthz', '/readyz', '/docs'];

/** One entry of the web build's manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The modules apps/web/src/main.tsx imports at once, by address: every page loads the app and the
 * session check, every page outside /auth the signed-in layout, and / and /dashboard also the
 * dashboard page. Their chunks are named in the page's HTML as preloads, so the browser fetches them
 * with the entry instead of after it has run (the first render waits for them).
 */
const APP_MODULES = ['src/app/render.tsx', 'src/app/session-check.ts'];
const LAYOUT_MODULE = 'src/app/layout/main-layout.tsx';
const DASHBOARD_MODULE = 'src/features/dashboard/pages/dashboard-page.tsx';

type PageKind = 'visitor' | 'signedIn' | 'dashboard';

export function pageKind(pathname: string): PageKind {
  if (/^\/auth(\/|$)/.test(pathname)) return 'visitor';
  return pathname === '/' || pathname === '/dashboard' ? 'dashboard' : 'signedIn';
}

/** A module's chunk, the chunks it imports, and their CSS: the files the browser fetches for it. */
function filesOf(manifest: Record<string, ManifestChunk>, roots: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) continue;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    queue.push(...(chunk.imports ?? []));
  }
  return [...files];
}

/** `<link>` preloads for the files not already named in the page. */
export function preloadTags(html: string, files: string[]): string {
  return files
    .filter((file) => !html.includes(`"/${file}"`))
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="preload" as="style" crossorigin href="/${file}">`
        : `<link rel="modulepreload" crossorigin href="/${file}">`,
    )
    .join('');
}

interface PageVariant {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * index.html for each kind of address, with that address's preloads, compressed once at start.
 * Null when the build has no manifest (the page is then sent as it is).
 */
function pageVariants(dist: string): Record<PageKind, PageVariant> | null {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  if (!manifest[LAYOUT_MODULE]) return null;
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const variant = (roots: string[]): PageVariant => {
    const tags = preloadTags(html, filesOf(manifest, roots));
    const page = Buffer.from(html.replace('</head>', `${tags}</head>`));
    return {
      raw: page,
      br: brotliCompressSync(page, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(page, { level: 9 }),
    };
  };
  return {
    visitor: variant(APP_MODULES),
    signedIn: variant([...APP_MODULES, LAYOUT_MODULE]),
    dashboard: variant([...APP_MODULES, LAYOUT_MODULE, DASHBOARD_MODULE]),
  };
}

/** Sends a page variant in the best encoding the client accepts. */
function sendPage(req: FastifyRequest, reply: FastifyReply, page: PageVariant) {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'Accept-Encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.raw);
}

/**
 * Serves the built web app from `dist` with an SPA fallback: any GET for a page (not an API path)
 * gets index.html, which also receives the XSRF cookie. Returns false when there is no build.
 */
export async function registerWebApp(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!existsSync(path.join(dist, 'index.html'))) return false;
  const pages = pageVariants(dist);
  // The app's files and pages are public (it signs in once it runs): every route of this scope,
  // @fastify/static's included, opts out of the default authentication.
  await app.register(async (web) => {
    web.addHook('onRoute', (route) => {
      route.config = { ...route.config, ...PUBLIC };
    });
    await web.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      // The build ships .br and .gz copies (apps/web/build/precompress.ts): the file the client
      // accepts is sent, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    web.get('/*', async (req, reply) => {
      const url = req.url.split('?')[0] ?? '/';
      // The app has its own pages under /api (the SMS & OTP API screens): a browser navigation there
      // (it accepts HTML) gets the app; an API call (it asks for JSON) gets the API's 404.
      const wantsPage = (req.headers.accept ?? '').includes('text/html');
      if (API_PREFIXES.some((p) => url.startsWith(p)) && !wantsPage) return reply.callNotFound();
      const file = path.join(dist, path.normalize(url));
      if (file.startsWith(dist) && url !== '/' && existsSync(file) && !url.endsWith('/')) {
        return reply.sendFile(path.relative(dist, file));
      }
      ensureXsrfCookie(req, reply);
      reply.header('cache-control', 'no-cache');
      if (pages) return sendPage(req, reply, pages[pageKind(url)]);
      return reply.sendFile('index.html');
    });
  });
  return true;
}
