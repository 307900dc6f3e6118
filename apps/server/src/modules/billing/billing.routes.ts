import {
  ADMIN_TOP_UPS_API,
  BILLING_API,
  STRIPE_WEBHOOK_PATH,
  adminTopUpListSchema,
  adminTopUpQuerySchema,
  billingSummaryDtoSchema,
  checkoutResultSchema,
  checkoutSchema,
  topUpDecisionSchema,
  topUpDtoSchema,
  topUpListSchema,
  topUpRequestSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { ADMIN, PUBLIC, can } from '../../platform/http/route-auth';
import { PaymentSignatureError } from './payment-provider';
import type { TopUpsService } from './top-ups.service';

const idParams = z.object({ id: z.uuid('Unknown top-up request') });
const actorOf = (req: FastifyRequest) => {
  const a = authOf(req);
  return { accountId: a.accountId, userId: a.userId, ip: req.ip ?? null };
};

/**
 * Billing of the signed-in account (issue 47 item 1): the summary and top-ups (billing:read), a
 * checkout or a request (billing:topup); the operators' decisions on requests (admin); and the
 * Stripe webhook (public: its signature over the raw body is its authentication).
 */
export function billingRoutes(ctx: AppContext) {
  const topUps: TopUpsService = ctx.services.topUps;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      BILLING_API.summary,
      { config: can('billing:read'), schema: { response: { 200: billingSummaryDtoSchema } } },
      async (req) => topUps.summary(authOf(req).accountId),
    );
    r.get(
      BILLING_API.topUps,
      { config: can('billing:read'), schema: { response: { 200: topUpListSchema } } },
      async (req) => ({ items: await topUps.list(authOf(req).accountId) }),
    );
    r.post(
      BILLING_API.topUps,
      {
        config: can('billing:topup'),
        schema: { body: topUpRequestSchema, response: { 201: topUpDtoSchema } },
      },
      async (req, reply) => reply.status(201).send(await topUps.request(actorOf(req), req.body)),
    );
    r.post(
      BILLING_API.checkout,
      {
        config: can('billing:topup'),
        schema: { body: checkoutSchema, response: { 201: checkoutResultSchema } },
      },
      async (req, reply) =>
        reply.status(201).send(await topUps.startCheckout(actorOf(req), req.body.amountMinor)),
    );

    // ---- operators ----
    r.get(
      ADMIN_TOP_UPS_API.list,
      {
        config: ADMIN,
        schema: { querystring: adminTopUpQuerySchema, response: { 200: adminTopUpListSchema } },
      },
      async (req) => ({ items: await topUps.listForOperators(req.query.status) }),
    );
    for (const decision of ['approve', 'reject'] as const) {
      r.post(
        ADMIN_TOP_UPS_API[decision],
        {
          config: ADMIN,
          schema: { params: idParams, body: topUpDecisionSchema, response: { 200: topUpDtoSchema } },
        },
        async (req) => topUps.decide(actorOf(req), req.params.id, decision, req.body.note),
      );
    }

    // ---- the Stripe webhook: the raw body, for its signature ----
    await app.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      hook.post(
        STRIPE_WEBHOOK_PATH,
        { config: { ...PUBLIC, rateLimit: { max: 600, timeWindow: 60_000 } }, bodyLimit: 256 * 1024 },
        async (req, reply) => {
          const provider = topUps.provider;
          if (!provider) return reply.status(404).send({ error: 'Stripe is not configured on this server' });
          const raw = req.body;
          if (!Buffer.isBuffer(raw)) return reply.status(400).send({ error: 'Send the event as JSON' });
          const sig = req.headers['stripe-signature'];
          let event;
          try {
            event = provider.verifyEvent(raw, Array.isArray(sig) ? sig[0] : sig);
          } catch (err) {
            if (err instanceof PaymentSignatureError) {
              req.log.warn({ reason: err.message }, 'Stripe webhook refused: bad signature');
              return reply.status(400).send({ error: 'Invalid signature' });
            }
            throw err;
          }
          const outcome = await topUps.handleEvent(event);
          return reply.status(200).send({ received: true, outcome });
        },
      );
    });
  };
}
