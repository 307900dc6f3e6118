import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, noContentSchema } from '@wren/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { PUBLIC } from './route-auth';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function ensureXsrfCookie(req: FastifyRequest, reply: FastifyReply) {
  if (req.cookies[XSRF_COOKIE]) return;
  reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
    path: '/',
    sameSite: 'strict',
    httpOnly: false, // the web client reads it and echoes it in X-XSRF-TOKEN
    secure: req.protocol === 'https',
  });
}

function matches(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Double-submit XSRF protection for the browser API under /api: unsafe methods need the
 * X-XSRF-TOKEN header to equal the XSRF-TOKEN cookie. The machine API (/v1) is exempt.
 * The check looks at the route the router matched (`routeOptions.url`, a pattern such as
 * `/api/groups/:id`), not the raw URL: `/%61pi/groups` is routed to `/api/groups` and checked too.
 */
export function registerXsrf(app: FastifyInstance) {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.routeOptions.url?.startsWith('/api/')) return;
    // A route that takes API keys, called with one: no cookies are involved, so nothing to forge.
    if (req.routeOptions.config.scope && /^Bearer\s+wren_live_/i.test(req.headers.authorization ?? ''))
      return;
    if (SAFE.has(req.method)) {
      ensureXsrfCookie(req, reply);
      return;
    }
    const header = req.headers[XSRF_HEADER];
    if (!matches(req.cookies[XSRF_COOKIE], Array.isArray(header) ? header[0] : header)) {
      throw new AppError(
        ErrorCode.XSRF_MISMATCH,
        'Your security token is missing or out of date. Reload the page and try again.',
      );
    }
  });
  app.get(
    '/api/auth/xsrf',
    { config: PUBLIC, schema: { response: { 204: noContentSchema } } },
    async (req, reply) => {
      ensureXsrfCookie(req, reply);
      return reply.status(204).send();
    },
  );
}
