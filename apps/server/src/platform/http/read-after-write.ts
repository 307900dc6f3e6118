import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadRouter } from '../read-replica';

/**
 * Read-your-writes with a read replica (issue 44 item 2): after a user's own successful write
 * (any 2xx/3xx answer to a method other than GET/HEAD/OPTIONS), the answer carries a short-lived
 * cookie, and while the browser still sends it their lag-tolerant reads go to the primary (a message
 * just sent is in the SMS log at once). The cookie's Max-Age is the replica's allowed lag plus two
 * seconds (its checks and this request's own time), so no node's clock is compared with another's.
 * Only registered when DATABASE_READ_URL is set.
 */
export const WROTE_COOKIE = 'wren-wrote';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerReadAfterWrite(app: FastifyInstance, reads: ReadRouter, maxLagMs: number) {
  if (!reads.configured) return;
  const maxAge = Math.ceil((maxLagMs + 2000) / 1000);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!SAFE.has(req.method) && reply.statusCode < 400 && req.url.startsWith('/api/')) {
      reply.setCookie(WROTE_COOKIE, '1', {
        path: '/api',
        httpOnly: true,
        sameSite: 'strict',
        secure: req.protocol === 'https',
        maxAge,
      });
    }
    done(null, payload);
  });
}

/** This request follows the user's own write by less than the replica's allowed lag. */
export const afterWrite = (req: FastifyRequest): boolean =>
  (req.cookies as Record<string, string | undefined> | undefined)?.[WROTE_COOKIE] !== undefined;

/** The options of a lag-tolerant read for `req` (ReadRouter.read / pick). */
export const readOptions = (req: FastifyRequest) => ({ afterWrite: afterWrite(req) });
