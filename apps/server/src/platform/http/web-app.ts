import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC } from './route-auth';
import { ensureXsrfCookie } from './xsrf';

const API_PREFIXES = ['/api/', '/v1/', '/hub', '/healthz', '/readyz', '/docs'];

/**
 * Serves the built web app from `dist` with an SPA fallback: any GET for a page (not an API path)
 * gets index.html, which also receives the XSRF cookie. Returns false when there is no build.
 */
export async function registerWebApp(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!existsSync(path.join(dist, 'index.html'))) return false;
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
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  });
  return true;
}
