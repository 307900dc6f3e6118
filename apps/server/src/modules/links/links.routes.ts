import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { SHORT_LINK_CODE_LENGTH } from '@wren/contracts';
import type { AppContext } from '../../app/context';
import { PUBLIC } from '../../platform/http/route-auth';
import { createClickRecorder } from './click-recorder';
import { countryOf, deviceOf } from './short-links';

const CODE = new RegExp(`^[A-Za-z0-9_-]{${SHORT_LINK_CODE_LENGTH}}$`);

const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Link not found</title><style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f8fafc}main{padding:24px;max-width:28rem;text-align:center}h1{font-size:1.25rem}</style></head><body><main><h1>This link is not valid or has expired</h1><p>Check the message it came in, or ask its sender for a new one.</p></main></body></html>`;

/**
 * Tracked short links (issue 41 item 2): `GET /l/{code}` answers a 302 to the original URL after
 * one read by primary key, and records the click off the request's path (click-recorder.ts). An
 * unknown, malformed or expired code gets a plain 404 page. Public: the recipient has no account.
 */
export const linksRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const clicks = createClickRecorder({ db: ctx.db, logger: ctx.logger });
    app.addHook('onClose', () => clicks.stop());

    app.get<{ Params: { code: string } }>(
      '/l/:code',
      { config: { ...PUBLIC, rateLimit: false } },
      async (req, reply) => {
        const { code } = req.params;
        const link = CODE.test(code)
          ? (
              await sql<{ url: string; campaign_id: string }>`
                SELECT url, campaign_id FROM short_links WHERE code = ${code} AND expires_at > now()`.execute(
                ctx.db,
              )
            ).rows[0]
          : undefined;
        if (!link) {
          return reply
            .status(404)
            .header('cache-control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(NOT_FOUND_PAGE);
        }
        clicks.record({
          code,
          campaignId: link.campaign_id,
          at: new Date(),
          device: deviceOf(req.headers['user-agent']),
          country: countryOf(req.headers),
        });
        // Each click must reach us (no shared cache of the redirect); the referrer is not passed on.
        return reply
          .status(302)
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .header('location', link.url)
          .send();
      },
    );
  };
