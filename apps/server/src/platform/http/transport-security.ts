import type { FastifyInstance } from 'fastify';

/** One year, as HSTS preload lists expect. */
const HSTS = 'max-age=31536000; includeSubDomains';
const PRIVATE_PREFIXES = ['/api/', '/v1/'];

/**
 * Headers that depend on the request (issue #14 finding 10):
 * - Strict-Transport-Security when the request came over TLS: the socket itself, or with
 *   TRUST_PROXY an `X-Forwarded-Proto: https` from the proxy (Fastify's request.protocol);
 *   never on plain HTTP, where a browser would ignore it and a local setup would be locked out.
 * - `Cache-Control: no-store` on every /api and /v1 reply that did not choose its own: replies
 *   hold personal data (profile, balance, contacts, messages), which no cache should keep.
 */
export function registerTransportSecurity(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    const url = req.url;
    if (PRIVATE_PREFIXES.some((p) => url.startsWith(p)) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
